#pragma once
// The constants of a network being compiled (re-laid weights, biases, folded batch norms),
// appended to one image of floats that the NetworkSpec's ConstantRanges index. The JIT path
// copies it into huge-page memory (page_block.h) when it materializes the network; an
// ahead-of-time artifact stores it as weights.bin and reads it straight into such memory.

#include <cstdint>
#include <span>
#include <vector>

#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::kernels::network {

class WeightImage {
 public:
  /// Appends `values` (64-byte aligned in the image) and returns their constant.
  runtime::ConstantId add(std::span<const float> values);
  [[nodiscard]] const std::vector<float>& floats() const { return floats_; }
  [[nodiscard]] const std::vector<runtime::ConstantRange>& ranges() const { return ranges_; }
  /// Bytes of the constants themselves (without alignment padding).
  [[nodiscard]] int64_t bytes() const { return bytes_; }

 private:
  std::vector<float> floats_;
  std::vector<runtime::ConstantRange> ranges_;
  int64_t bytes_ = 0;
};

}  // namespace layoutopt::kernels::network
