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

/// The five operands of one kernel call, each a random block; absent ones (size 0) are
/// passed as null.
class KernelOperands {
 public:
  explicit KernelOperands(const kernels::BufferSizes& sizes);
  [[nodiscard]] kernels::KernelArgs args() const;
  [[nodiscard]] const kernels::BufferSizes& sizes() const { return sizes_; }

 private:
  kernels::BufferSizes sizes_;
  kernels::PageBlock input_, weight_, bias_, residual_, output_;
};

}  // namespace layoutopt::measure
