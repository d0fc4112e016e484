#pragma once
// Memory for a compiled network's constants (re-laid weights, biases, folded batch norms):
// packed into a few huge-page blocks (page_block.h) rather than one allocation each, so
// streaming the weights does not miss the TLB every 4 KiB.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "layoutopt/kernels/page_block.h"

namespace layoutopt::kernels::network {

class ConstantPool {
 public:
  /// Copies `values` into the pool (64-byte aligned) and returns their address, valid for
  /// the pool's lifetime.
  const float* add(std::span<const float> values);
  [[nodiscard]] int64_t bytes() const { return bytes_; }

 private:
  std::vector<PageBlock> blocks_;
  size_t used_ = 0;  ///< floats used in the last block
  int64_t bytes_ = 0;
};

}  // namespace layoutopt::kernels::network
