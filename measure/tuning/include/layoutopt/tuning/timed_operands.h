#pragma once
// Operands of timed runs: random values (never uninitialised memory, see random_fill.h) in
// blocks of their own, aligned and paged like a compiled network's arena
// (kernels/page_block.h). std::vector memory sits wherever malloc puts it (16 bytes past a
// page boundary for large allocations, anywhere on the heap for small ones), so 64-byte
// vector accesses split across cache lines in one process and not in the next: the same
// layout transform re-timed in a second process differed by up to 2x, and network runs,
// whose tensors are 64-byte aligned, never see such buffers.

#include <cstddef>
#include <cstdint>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/page_block.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::tuning {

/// `floats` random values (fill_random with `seed`) in a page block of their own.
[[nodiscard]] kernels::PageBlock random_block(size_t floats, uint64_t seed);

/// Where an activation operand's tensor lies in its block: its first `floats` values, in
/// planes of `plane` floats each (row_plane_floats).
struct ActivationExtent {
  int64_t floats = 0;
  int64_t plane = 1;
};

/// Random values spanning twice cold_weight_bytes() (cost_policy.h) in one page block, made
/// on first use and shared by every kernel timed in the process: each takes its weight
/// copies from it, and every weight up to the span finds all cold_weight_copies() of its
/// copies there. Faulting in and filling that much memory takes seconds on a 2-core host,
/// so it is done once, not for every task (evidence: docs/design/cold-weights.md).
class ColdWeightPool {
 public:
  [[nodiscard]] static const ColdWeightPool& shared();
  [[nodiscard]] const float* data() const { return block_.data(); }
  [[nodiscard]] size_t floats() const { return block_.size(); }

 private:
  ColdWeightPool();
  kernels::PageBlock block_;
};

/// The operands of one kernel call, each a random block; absent ones (size 0) are
/// passed as null. With `weight_copies` > 1 the weights come in that many page-aligned
/// copies, taken from the ColdWeightPool (as many as fit it), so that runs cycling through
/// them find their weights where a network run does: not in any cache (cost_policy.h).
class KernelOperands {
 public:
  explicit KernelOperands(const kernels::BufferSizes& sizes, int64_t weight_copies = 1);
  /// The operands of the run-th call: weight copy `run % weight_copies`, the rest shared.
  [[nodiscard]] kernels::KernelArgs args(int64_t run = 0) const;
  [[nodiscard]] const kernels::BufferSizes& sizes() const { return sizes_; }
  /// Puts the input and the residual where a network leaves them, each thread's rows in its
  /// core's cache (activation_placement.h). The values stay as they are.
  void place_activations(const ActivationExtent& input, const ActivationExtent& residual);
  /// Copies the runs cycle through: `weight_copies`, or fewer when the pool holds fewer.
  [[nodiscard]] int64_t weight_copies() const { return weight_copies_; }

 private:
  kernels::BufferSizes sizes_;
  int64_t weight_copies_ = 1;
  size_t weight_stride_ = 0;  ///< floats from one copy to the next
  kernels::PageBlock input_, weights_, bias_, residual_, output_, scale_;  ///< weights_: empty when pooled
  const float* first_weights_ = nullptr;
};

}  // namespace layoutopt::tuning
