#include "layoutopt/kernels/global_avg_pool.h"

#include "layoutopt/kernels/pool2d.h"

namespace layoutopt::kernels {

namespace {

// Global average pooling is an average pool whose one window is the whole image.
Pool2dDesc as_pool(const TensorDesc& input) {
  input.validate("global_avg_pool", input.str());
  Pool2dDesc pool;
  pool.input = input;
  pool.kind = PoolKind::average;
  pool.kernel_h = input.height, pool.kernel_w = input.width;
  pool.out_h = pool.out_w = 1;
  return pool;
}

}  // namespace

GlobalAvgPoolLayouts global_avg_pool_layouts(const TensorDesc& input) {
  const Pool2dLayouts layouts = pool2d_layouts(as_pool(input));
  return {layouts.input, layouts.output};
}

Kernel compile_global_avg_pool(const TensorDesc& input) { return compile_pool2d(as_pool(input), {1}); }

}  // namespace layoutopt::kernels
