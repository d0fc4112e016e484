#include "layoutopt/kernels/dense.h"

#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/layout/weight_layouts.h"

namespace layoutopt::kernels {

namespace {

// dense is a 1x1 convolution over a 1x1 image: NC[x]c is NCHW[x]c with H = W = 1 and
// OI[x]i[y]o is OIHW[x]i[y]o with KH = KW = 1, so the conv2d microkernel runs it unchanged.
Conv2dDesc as_conv(const DenseDesc& d) {
  Conv2dDesc conv;
  conv.batch = d.batch;
  conv.in_channels = d.in_features;
  conv.in_h = conv.in_w = 1;
  conv.out_channels = d.out_features;
  conv.epilogue = d.epilogue;
  return conv;
}

Conv2dSchedule as_conv(const DenseSchedule& s) { return {s.in_bn, s.out_bn, 1, true, 1, false, s.prefetch_weights}; }

void require(bool ok, const DenseDesc& desc, const DenseSchedule& schedule, const std::string& what) {
  if (!ok) throw KernelError("invalid dense schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

}  // namespace

void DenseDesc::validate() const {
  if (batch <= 0 || in_features <= 0 || out_features <= 0)
    throw KernelError("invalid dense desc " + str() + ": batch and feature counts must be positive");
}

double DenseDesc::flops() const { return 2.0 * static_cast<double>(batch * in_features * out_features); }

std::string DenseDesc::str() const {
  return "n" + std::to_string(batch) + "_i" + std::to_string(in_features) + "_o" + std::to_string(out_features) +
         "_" + epilogue.str();
}

std::string DenseSchedule::str() const {
  return "in" + std::to_string(in_bn) + "_out" + std::to_string(out_bn) + (prefetch_weights ? "_pf" : "");
}

ConfigSpace dense_space(const DenseDesc& desc) {
  desc.validate();
  ConfigSpace space;
  namespace k = knobs::dense;
  space.add(k::tile_in, divisors(desc.in_features));
  space.add(k::tile_out, divisors(desc.out_features));
  space.add(k::prefetch_weights, {0, 1}, 0);
  return space;
}

DenseSchedule dense_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::dense;
  return {point.at(k::tile_in.name), point.at(k::tile_out.name), point.at(k::prefetch_weights.name) != 0};
}

void validate_dense(const DenseDesc& desc, const DenseSchedule& s) {
  desc.validate();
  require(s.in_bn > 0 && desc.in_features % s.in_bn == 0, desc, s,
          "in_bn must divide in_features = " + std::to_string(desc.in_features));
  require(s.out_bn > 0 && desc.out_features % s.out_bn == 0, desc, s,
          "out_bn must divide out_features = " + std::to_string(desc.out_features));
}

DenseLayouts dense_layouts(const DenseDesc& desc, const DenseSchedule& s) {
  validate_dense(desc, s);
  return {layout::Layout::nc().split('C', s.in_bn), layout::dense_weight_layout(s.in_bn, s.out_bn),
          layout::Layout::nc().split('C', s.out_bn)};
}

Kernel compile_dense(const DenseDesc& desc, const DenseSchedule& schedule) {
  validate_dense(desc, schedule);
  return compile_conv2d(as_conv(desc), as_conv(schedule));
}

}  // namespace layoutopt::kernels
