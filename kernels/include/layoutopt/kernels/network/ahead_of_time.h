#pragma once
// Ahead-of-time compilation: a graph and a schedule become an artifact folder that the
// runtime (layoutopt/runtime/session.h, the C API layoutopt/runtime/layoutopt.h) loads
// without LLVM: network.so (object code of the very kernels CompiledNetwork JIT-compiles,
// from the same optimized IR, for the same triple, CPU and features, linked by the system's
// `cc -shared`), program.bin (the network as data) and weights.bin (the re-laid constants).
// See docs/design/aot-artifact.md.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/forks.h"
#include "layoutopt/kernels/network/network_schedule.h"

namespace layoutopt::kernels {

struct AheadOfTimeOptions {
  /// Created if missing. Its artifact files are replaced once the new ones are all written
  /// (aot/staged_artifact.h); nothing else in it is touched. Refusing to replace is the caller's.
  std::filesystem::path directory;
  int threads = 0;                  ///< recorded as the artifact's default thread count (0: OpenMP's)
  std::string linker = "cc";        ///< the C compiler driver that links the shared object
  std::function<void(const std::string&)> progress;  ///< told each phase, if set
  /// Stretches of steps the artifact runs side by side (plan_forks over a CompiledNetwork of
  /// the same graph and schedule); carried in program.bin.
  std::vector<Fork> forks;
};

struct AheadOfTimeResult {
  size_t steps = 0;
  size_t transforms = 0;
  size_t symbols = 0;          ///< distinct kernel functions in network.so
  size_t forks = 0;            ///< stretches run side by side
  int64_t weight_bytes = 0;    ///< size of the weight image
  std::string cpu;
  std::vector<std::string> cpu_features;  ///< what the code needs of a CPU
  double seconds = 0;
};

/// Throws KernelError naming the node for a schedule that does not fit the graph, or for a
/// node without a blocked kernel (its reference implementation needs the graph at run time,
/// which an artifact does not have); KernelError too when code generation or linking fails.
AheadOfTimeResult compile_ahead_of_time(const graph::Graph& graph, const NetworkSchedule& schedule,
                                        const AheadOfTimeOptions& options);

}  // namespace layoutopt::kernels
