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

namespace layoutopt::measure {

/// `floats` random values (fill_random with `seed`) in a page block of their own.
[[nodiscard]] kernels::PageBlock random_block(size_t floats, uint64_t seed);

/// Where an activation operand's tensor lies in its block: its first `floats` values, in
/// planes of `plane` floats each (row_plane_floats).
struct ActivationExtent {
  int64_t floats = 0;
  int64_t plane = 1;
};

/// The five operands of one kernel call, each a random block; absent ones (size 0) are
/// passed as null. The weights come in `weight_copies` copies, page-aligned in one block,
/// so that runs cycling through them find their weights where a network run does: not in
/// any cache (see kColdWeightBytes in cost_policy.h).
class KernelOperands {
 public:
  explicit KernelOperands(const kernels::BufferSizes& sizes, int64_t weight_copies = 1);
  /// The operands of the run-th call: weight copy `run % weight_copies`, the rest shared.
  [[nodiscard]] kernels::KernelArgs args(int64_t run = 0) const;
  [[nodiscard]] const kernels::BufferSizes& sizes() const { return sizes_; }
  /// Puts the input and the residual where a network leaves them, each thread's rows in its
  /// core's cache (activation_placement.h). The values stay as they are.
  void place_activations(const ActivationExtent& input, const ActivationExtent& residual);
  [[nodiscard]] int64_t weight_copies() const { return weight_copies_; }

 private:
  kernels::BufferSizes sizes_;
  int64_t weight_copies_ = 1;
  size_t weight_stride_ = 0;  ///< floats from one copy to the next
  kernels::PageBlock input_, weights_, bias_, residual_, output_;
};

}  // namespace layoutopt::measure
