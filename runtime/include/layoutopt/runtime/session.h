#pragma once
// Session: an ahead-of-time artifact loaded and ready to run. An artifact is a folder:
//
//   network.so   the kernels' machine code (for the CPU the plan was made on)
//   program.bin  the network as data (artifact_program.h) with the CPU's features and the
//                weights' seal
//   weights.bin  the constants, re-laid for the plan (weights_file.h)
//
// Loading refuses, naming the reason: a damaged, truncated or foreign file, a CPU that lacks
// an instruction set the code was compiled for, weights that do not belong to the program.
// Runs check each tensor's shape. The C API (layoutopt.h) wraps this class.
//
// Threads: run() may be called from many threads at once on one session, as ONNX Runtime's
// Run may. Each call in flight runs on a network of its own (arena and scratch; NetworkPool),
// over the one copy of the weights and code, so concurrent calls compute exactly what the
// same calls made one after another compute. Loading, moving and destroying a session are
// not concurrent with anything.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/runtime/network_spec.h"
#include "layoutopt/runtime/tensor_view.h"

namespace layoutopt::runtime {

inline constexpr const char* kSharedObjectFile = "network.so";
inline constexpr const char* kProgramFile = "program.bin";
inline constexpr const char* kWeightsFile = "weights.bin";

struct SessionOptions {
  /// OpenMP threads of each run; 0: the thread count the artifact was compiled for, or
  /// OpenMP's default when it records none.
  int threads = 0;
};

class Session {
 public:
  /// Throws ArtifactError saying why the artifact cannot run here.
  static Session load(const std::filesystem::path& directory, const SessionOptions& options = {});

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  [[nodiscard]] const std::vector<TensorSpec>& inputs() const;
  [[nodiscard]] const std::vector<TensorSpec>& outputs() const;
  [[nodiscard]] const ArtifactProgram& program() const;
  [[nodiscard]] int threads() const;

  /// Runs the network: one view per input and per output, in order, each of its tensor's
  /// shape. Throws ArtifactError for a wrong count, shape or null data. Safe to call from
  /// many threads at once (see above); each run uses threads() OpenMP threads.
  void run(std::span<const TensorView> inputs, std::span<const MutableTensorView> outputs) const;
  /// Networks (activation arenas) made so far: the most runs that were in flight at once.
  [[nodiscard]] size_t networks_made() const;

 private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace layoutopt::runtime
