#include "layoutopt/measure/timed_operands.h"

#include "layoutopt/measure/random_fill.h"

namespace layoutopt::measure {

namespace {

size_t floats(int64_t count) { return static_cast<size_t>(count); }

const float* or_null(const kernels::PageBlock& block) { return block.empty() ? nullptr : block.data(); }

}  // namespace

kernels::PageBlock random_block(size_t floats, uint64_t seed) {
  kernels::PageBlock block(floats);
  fill_random(block.span(), seed);
  return block;
}

KernelOperands::KernelOperands(const kernels::BufferSizes& sizes)
    : sizes_(sizes),
      input_(random_block(floats(sizes.input), 1)),
      weight_(random_block(floats(sizes.weight), 2)),
      bias_(random_block(floats(sizes.bias), 3)),
      residual_(random_block(floats(sizes.residual), 4)),
      output_(random_block(floats(sizes.output), 5)) {}

kernels::KernelArgs KernelOperands::args() const {
  return {or_null(input_), or_null(weight_), or_null(bias_), or_null(residual_), output_.data()};
}

}  // namespace layoutopt::measure
