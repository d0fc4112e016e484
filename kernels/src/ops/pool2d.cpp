#include "layoutopt/kernels/pool2d.h"

#include <algorithm>

#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "ops/pool_emitter.h"

namespace layoutopt::kernels {

namespace {

// Widest tile the space offers: 16 columns x one vector is half the AVX-512 register file.
constexpr int64_t kMaxTileWidth = 16;
// Accumulator vectors of the default tile: half the register file (16 zmm, 8 ymm).
int64_t default_accumulators() { return host_info().vector_registers / 2; }

void require(bool ok, const Pool2dDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid pool2d desc " + desc.str() + ": " + what);
}

// Checks one spatial axis: padding below the kernel on both sides, and the last window
// starting inside the input or its leading padding (PyTorch's ceil-mode rule).
void require_axis(const Pool2dDesc& desc, const char* axis, int64_t in, int64_t out, int64_t kernel, int64_t stride,
                  int64_t pad_before, int64_t pad_after) {
  const std::string name(axis);
  require(kernel > 0 && stride > 0, desc, "kernel_" + name + " and stride_" + name + " must be positive");
  require(pad_before >= 0 && pad_after >= 0 && pad_before < kernel && pad_after < kernel, desc,
          name + " padding must lie in [0, kernel_" + name + ")");
  require(out > 0, desc, "out_" + name + " must be positive");
  require((out - 1) * stride - pad_before < in, desc,
          "out_" + name + " = " + std::to_string(out) + " makes the last window start past the input");
}

}  // namespace

TensorDesc Pool2dDesc::output() const {
  TensorDesc out = input;
  out.height = out_h;
  out.width = out_w;
  return out;
}

void Pool2dDesc::validate() const {
  input.validate("pool2d", str());
  require_axis(*this, "h", input.height, out_h, kernel_h, stride_h, pad_top, pad_bottom);
  require_axis(*this, "w", input.width, out_w, kernel_w, stride_w, pad_left, pad_right);
}

std::string Pool2dDesc::str() const {
  return std::string(kind == PoolKind::max ? "max" : "avg") + "_" + input.str() + "_k" + std::to_string(kernel_h) +
         "x" + std::to_string(kernel_w) + "_s" + std::to_string(stride_h) + "x" + std::to_string(stride_w) + "_p" +
         std::to_string(pad_top) + "." + std::to_string(pad_left) + "." + std::to_string(pad_bottom) + "." +
         std::to_string(pad_right) + (count_include_pad ? "_incpad" : "") + "_o" + std::to_string(out_h) + "x" +
         std::to_string(out_w);
}

ConfigSpace pool2d_space(const Pool2dDesc& desc) {
  desc.validate();
  ConfigSpace space;
  space.add(knobs::pool2d::tile_ow, inclusive_range(1, std::min(desc.out_w, kMaxTileWidth)));
  return space;
}

Pool2dSchedule pool2d_schedule_at(const ConfigSpace& space, int64_t index) {
  return {space.point(index).at(knobs::pool2d::tile_ow.name)};
}

Pool2dSchedule pool2d_default_schedule(const Pool2dDesc& desc) {
  desc.validate();
  const int64_t chunks = host_info().vectors_spanning(desc.input.block);
  return {std::clamp<int64_t>(default_accumulators() / chunks, 1, desc.out_w)};
}

void validate_pool2d(const Pool2dDesc& desc, const Pool2dSchedule& schedule) {
  desc.validate();
  if (schedule.ow_bn < 1 || schedule.ow_bn > desc.out_w)
    throw KernelError("invalid pool2d schedule " + schedule.str() + " for " + desc.str() +
                      ": ow_bn must lie in [1, out_w = " + std::to_string(desc.out_w) + "]");
}

Pool2dLayouts pool2d_layouts(const Pool2dDesc& desc) {
  desc.validate();
  return {desc.input.layout(), desc.output().layout()};
}

Kernel compile_pool2d(const Pool2dDesc& desc, const Pool2dSchedule& schedule) {
  validate_pool2d(desc, schedule);
  return Kernel(jit::cached_kernel("pool2d|" + desc.str() + "|" + schedule.str(),
                                   [&] { return ops::compile_pool(desc, schedule, "pool2d"); }));
}

}  // namespace layoutopt::kernels
