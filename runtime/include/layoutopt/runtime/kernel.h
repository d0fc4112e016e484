#pragma once
// Kernel: a compiled operator instance (JIT-compiled, or loaded from an ahead-of-time
// artifact), callable from plain C++ (no LLVM types here).
//
// Every generated function has the signature
//   void k(const float* in, const float* w, const float* bias, const float* residual,
//          float* out, const float* scale, int64_t begin, int64_t end)
// and computes the work items [begin, end) (for conv2d: flattened (batch, oc_block,
// output-row tile)). Parallelism lives in the C++ runtime, not in generated code:
// operator() splits [0, work_items()) over OpenMP threads: a team of its own, or the
// caller's team when every thread of it makes the call (a network runs its steps so, in
// one team, instead of forking and joining one per step).
//
// Most kernels are one such function. Some algorithms are a short pipeline of them (Winograd
// convolution: input transform, batched GEMM, output transform), each stage needing all of
// the previous stage's results; such a kernel keeps the intermediates in scratch buffers
// (its own, or shared with kernels that never run at the same time) and runs its stages one
// after another, each split over the threads. Or, when the work divides into independent
// units (Winograd: bands of tile rows), each thread runs every stage on one unit after
// another with scratch of its own, so the intermediates stay in its cache.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/runtime/item_claims.h"
#include "layoutopt/runtime/page_block.h"
#include "layoutopt/runtime/team_barrier.h"

namespace layoutopt::runtime {

/// Which OpenMP threads run a call.
enum class Team {
  /// One thread calls; the call forks a team of its own and joins it before returning.
  own,
  /// Every thread of the calling team makes the call, with the same arguments. They split the
  /// work as a team of its own would, and each returns once all of it is done (a barrier).
  /// Such a call never sizes scratch: a call with Team::own at the same thread count must
  /// come first. One team at a time calls a Kernel object so (its threads share the
  /// object's ItemClaims); copies have claims of their own.
  calling,
  /// The calling thread alone does all of the call's work, inside a parallel region whose
  /// other threads run other steps at the same time (a lane of a Fork): no claims, no
  /// barrier. A kernel of units uses the scratch copy of the calling thread's number; a kernel
  /// whose one scratch copy the whole team shares cannot run so (Kernel::can_run_alone). Like
  /// a calling team, it never sizes scratch.
  alone,
};

/// Pointers in the layouts the kernel's schedule implies. weight / bias / residual / scale may
/// be null when the operator, its epilogue or its input scale does not use them. output must
/// not overlap input, weight, bias or scale; it may be the very same buffer as residual
/// (in-place add).
struct KernelArgs {
  const float* input = nullptr;
  const float* weight = nullptr;
  const float* bias = nullptr;
  const float* residual = nullptr;
  float* output = nullptr;
  /// A conv's input scale (Conv2dDesc::input_scale): batch x in_channels floats, plain.
  const float* scale = nullptr;
};

using KernelFunction = void (*)(const float*, const float*, const float*, const float*, float*, const float*,
                                int64_t, int64_t);

/// Metadata of one compiled function; shared by all handles to it (kernels are cached).
struct CompiledFunction {
  KernelFunction function = nullptr;
  int64_t work_items = 0;
  double compile_ms = 0.0;  ///< IR emission + optimization + machine-code generation
  std::string name;         ///< symbol name, unique per process
  bool needs_weight = true;  ///< false for operators without a weight (pooling, activations, ...)
  bool needs_bias = false;
  bool needs_residual = false;
  bool needs_scale = false;
  /// Stores partial sums in its output before a later pass reads the residual, so the output
  /// must not share the residual's memory. Read when a network is laid out (not part of an
  /// artifact: its memory plan is already made).
  bool output_holds_partial_sums = false;
};

/// Where one stage of a multi-stage kernel takes a pointer argument from: one of the
/// kernel's own arguments, one of its scratch buffers, or nowhere (null).
enum class StageOperand { none, input, weight, bias, residual, output, scale, scratch0, scratch1 };

/// Pointer arguments of every generated function.
inline constexpr size_t kKernelPointers = 6;

/// Whether a thread may run a kernel with these scratch buffers and units with Team::alone
/// while others run other kernels that share its scratch: it has none, or a copy per thread
/// (a kernel of units).
inline bool can_run_alone(const std::vector<int64_t>& scratch_floats, int64_t units) {
  return scratch_floats.empty() || units > 0;
}

/// Intermediate buffers of multi-stage kernels, in page blocks like every other operand
/// (aligned: a plain vector's 16-byte offset would split every 64-byte access in two).
/// Kernels that never run at the same time (the steps of one network run one after
/// another) can share one: it then holds, per buffer, as much as the largest of them needs.
class KernelScratch {
 public:
  /// Grows buffer `index` to at least `floats` floats (zero-filled); returns its start.
  float* reserve(size_t index, int64_t floats);
  [[nodiscard]] float* data(size_t index) const;
  /// Floats in buffer `index`; 0 for a buffer never reserved.
  [[nodiscard]] int64_t floats(size_t index) const;
  [[nodiscard]] int64_t bytes() const;

 private:
  std::vector<PageBlock> buffers_;
};

/// One function of a multi-stage kernel with the sources of its pointer arguments, in
/// signature order (in, w, bias, residual, out, scale).
struct KernelStage {
  std::shared_ptr<const CompiledFunction> compiled;
  std::array<StageOperand, kKernelPointers> operands;
  /// In a kernel of units: the stage's work items are those of one unit, all run for every
  /// unit (it works on the unit's scratch alone); otherwise unit u runs its share
  /// [u * items / units, (u + 1) * items / units).
  bool whole_each_unit = false;
};

class Kernel {
 public:
  /// The longest pipeline a Kernel runs (Winograd has three stages).
  static constexpr size_t kMaxStages = 4;

  /// A single-function kernel: its arguments are the caller's.
  explicit Kernel(std::shared_ptr<const CompiledFunction> compiled);
  /// A pipeline run in order, with scratch buffers of the given float counts (at most two).
  /// Unless given a shared scratch first, the kernel allocates its own (zero-filled) on its
  /// first run. Copies of a Kernel share its scratch: run one of them at a time.
  /// With `units` > 0 the pipeline runs unit by unit: each thread claims units as run_stages
  /// claims items (its own contiguous range first) and runs every stage on each (see
  /// KernelStage::whole_each_unit), with scratch buffers of its own, each of the given float
  /// count.
  Kernel(std::string name, std::vector<KernelStage> stages, std::vector<int64_t> scratch_floats, int64_t units = 0);

  /// Uses `shared` for scratch (growing it to this kernel's needs) instead of its own; only
  /// for kernels that never run while another user of `shared` runs.
  void use_scratch(const std::shared_ptr<KernelScratch>& shared);

  /// Runs all work items of every stage, each stage split into contiguous ranges over the
  /// team's threads, which finish each other's when one falls behind (ItemClaims); or, with
  /// units, each thread's units through all stages.
  void operator()(const KernelArgs& args, Team team = Team::own) const;
  /// Runs work items [begin, end) on the calling thread. Single-function kernels only: a
  /// stage of a pipeline reads all of the previous stage's output.
  void run_range(const KernelArgs& args, int64_t begin, int64_t end) const;

  /// The parts of its scratch this kernel uses, one per buffer; empty for a single-function
  /// kernel, or before its scratch exists (a first run or use_scratch makes it).
  [[nodiscard]] std::vector<std::span<float>> scratch_regions() const;

  /// Work items of a single-function kernel; for a pipeline, those of its last stage.
  [[nodiscard]] int64_t work_items() const { return stages_.back().compiled->work_items; }
  /// JIT time summed over the stages.
  [[nodiscard]] double compile_ms() const;
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::vector<KernelStage>& stages() const { return stages_; }
  [[nodiscard]] const std::vector<int64_t>& scratch_floats() const { return scratch_floats_; }
  [[nodiscard]] int64_t units() const { return units_; }
  [[nodiscard]] bool can_run_alone() const { return runtime::can_run_alone(scratch_floats_, units_); }

 private:
  using Pointers = std::array<float*, kKernelPointers>;
  using StagePointers = std::array<Pointers, kMaxStages>;
  /// Scratch copies a team of `threads` needs: one per thread for a kernel of units, else one.
  [[nodiscard]] int64_t scratch_copies(int64_t threads) const;
  /// Whether the kernel's scratch holds scratch_copies(threads) of every buffer: a team must
  /// find it sized, it cannot grow it.
  [[nodiscard]] bool scratch_fits(int64_t threads) const;
  /// Grows `scratch` to the copies OpenMP's default team needs, of every buffer.
  void reserve_scratch(KernelScratch& scratch) const;
  /// The kernel's scratch (its own, made on first use, unless shared), grown as above.
  KernelScratch& ensure_scratch() const;
  /// The stage's pointers, scratch ones into the first copy (sized first unless a team calls).
  [[nodiscard]] Pointers resolve(const KernelStage& stage, const KernelArgs& args, Team team) const;
  /// Floats between consecutive copies of each scratch buffer.
  using CopyPitch = std::array<int64_t, 2>;
  [[nodiscard]] CopyPitch copy_pitch(Team team) const;
  /// `pointers` of the stage with its scratch ones moved to copy `copy`.
  [[nodiscard]] Pointers in_copy(const KernelStage& stage, Pointers pointers, int64_t copy, const CopyPitch& pitch) const;
  void check(const KernelStage& stage, const Pointers& pointers) const;
  void run_stages(const StagePointers& pointers, Team team) const;
  void run_units(const StagePointers& first_copy, Team team) const;

  std::string name_;
  std::vector<KernelStage> stages_;
  std::vector<int64_t> scratch_floats_;
  int64_t units_ = 0;
  mutable std::shared_ptr<KernelScratch> scratch_;  // allocated on first use unless shared
  mutable ItemClaims team_claims_;                  // shared by a calling team's threads
  mutable TeamBarrier team_barrier_;                // where a calling team waits at the end of each stage
};

}  // namespace layoutopt::runtime
