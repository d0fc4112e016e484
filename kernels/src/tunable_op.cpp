#include "layoutopt/kernels/tunable_op.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/depthwise_conv2d.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/gemm_conv2d.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/kernels/layout_knobs.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::kernels {

namespace {

int64_t product(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

// Floats of a tensor with logical `shape` (in `canonical` order) stored in `physical`.
// Blocks always divide their axis here, so this equals the logical size; computing it
// through the layout keeps it right should padded layouts ever appear.
int64_t physical_floats(const std::vector<int64_t>& shape, const layout::Layout& physical,
                        const layout::Layout& canonical) {
  return product(physical.physical_shape(shape, canonical));
}

// `bias_floats`: the bias operand's floats (a conv's prologue constants follow its biases).
BufferSizes sizes_with_epilogue(BufferSizes sizes, const Epilogue& epilogue, int64_t bias_floats) {
  sizes.bias = bias_floats;
  sizes.residual = epilogue.residual ? sizes.output : 0;
  return sizes;
}

std::vector<int64_t> conv_weight_shape(const Conv2dDesc& d) {
  return {d.out_channels, d.in_channels_per_group(), d.kernel_h, d.kernel_w};
}

std::vector<int64_t> conv_input_shape(const Conv2dDesc& d) { return {d.batch, d.in_channels, d.in_h, d.in_w}; }
std::vector<int64_t> conv_output_shape(const Conv2dDesc& d) { return {d.batch, d.out_channels, d.out_h(), d.out_w()}; }

BufferSizes conv_buffer_sizes(const Conv2dDesc& d, const OpLayouts& l) {
  const layout::Layout nchw = layout::Layout::nchw();
  BufferSizes sizes;
  sizes.input = physical_floats(conv_input_shape(d), l.input, nchw);
  sizes.weight = physical_floats(conv_weight_shape(d), l.weight, layout::Layout::oihw());
  sizes.output = physical_floats(conv_output_shape(d), l.output, nchw);
  sizes.scale = d.input_scale ? d.batch * d.in_channels : 0;
  return sizes_with_epilogue(sizes, d.epilogue, d.bias_floats());
}

BufferSizes dense_buffer_sizes(const DenseDesc& d, const OpLayouts& l) {
  const layout::Layout nc = layout::Layout::nc();
  BufferSizes sizes;
  sizes.input = physical_floats({d.batch, d.in_features}, l.input, nc);
  sizes.weight = physical_floats({d.out_features, d.in_features}, l.weight, layout::Layout::oi());
  sizes.output = physical_floats({d.batch, d.out_features}, l.output, nc);
  return sizes_with_epilogue(sizes, d.epilogue, d.epilogue.bias ? d.out_features : 0);
}

std::map<std::string, int64_t> default_conv_knobs(const Conv2dDesc& d) {
  const Conv2dSchedule s = conv2d_default_schedule(d);
  namespace k = knobs::conv2d;
  return {{k::tile_ic.name, s.ic_bn},         {k::tile_oc.name, s.oc_bn},
          {k::tile_ow.name, s.ow_bn},         {k::unroll_kw.name, s.unroll_kw ? 1 : 0},
          {k::tile_oh.name, s.oh_bn},         {k::oc_inner.name, s.oc_inner ? 1 : 0},
          {k::prefetch_weights.name, s.prefetch_weights ? 1 : 0},
          {k::reduce_chunk.name, s.reduce_chunk},
          {k::flat_pixels.name, s.flat_pixels ? 1 : 0},
          {k::tile_oc_blocks.name, s.oc_tile_blocks},
          {k::prefetch_input.name, s.prefetch_input ? 1 : 0},
          {kStoreKnob.name, s.store_bn},      {kLoadKnob.name, s.load_bn}};
}

std::map<std::string, int64_t> default_winograd_knobs(const Conv2dDesc& d) {
  const WinogradSchedule s = winograd_default_schedule(d);
  namespace k = knobs::winograd_conv2d;
  return {{k::tile_m.name, s.m},
          {k::tile_ic.name, s.ic_bn},
          {k::tile_oc.name, s.oc_bn},
          {k::tile_t.name, s.tile_t},
          {k::oc_inner.name, s.oc_inner ? 1 : 0},
          {k::prefetch_weights.name, s.prefetch_weights ? 1 : 0},
          {k::tile_band.name, s.band_rows},
          {k::tile_oc_blocks.name, s.oc_tile_blocks},
          {kStoreKnob.name, s.store_bn}};
}

std::map<std::string, int64_t> default_gemm_knobs(const Conv2dDesc& d) {
  const GemmConv2dSchedule s = gemm_conv2d_default_schedule(d);
  namespace k = knobs::gemm_conv2d;
  return {{k::tile_channels.name, s.channels_bn}, {k::tile_pixels.name, s.pixels_bn}};
}

std::map<std::string, int64_t> default_depthwise_knobs(const Conv2dDesc& d) {
  const DepthwiseConv2dSchedule s = depthwise_conv2d_default_schedule(d);
  namespace k = knobs::depthwise_conv2d;
  return {{k::tile_c.name, s.c_bn}, {k::tile_ow.name, s.ow_bn}, {k::tile_oh.name, s.oh_bn}};
}

std::map<std::string, int64_t> default_dense_knobs(const DenseDesc& d) {
  const DenseSchedule s = dense_default_schedule(d);
  namespace k = knobs::dense;
  std::map<std::string, int64_t> knobs{
      {k::tile_in.name, s.in_bn}, {k::tile_out.name, s.out_bn}, {k::prefetch_weights.name, 0}};
  if (d.batch > 1) knobs[k::tile_rows.name] = s.rows_bn;  // the space has the knob only then
  return knobs;
}

}  // namespace

const char* to_string(OpFamily family) {
  switch (family) {
    case OpFamily::conv2d: return "conv2d";
    case OpFamily::group_conv2d: return "group_conv2d";
    case OpFamily::depthwise_conv2d: return "depthwise_conv2d";
    case OpFamily::winograd_conv2d: return "winograd_conv2d";
    case OpFamily::dense: return "dense";
    case OpFamily::gemm_conv2d: return "gemm_conv2d";
  }
  return "unknown";
}

bool takes_input_scale(OpFamily family) { return family == OpFamily::conv2d || family == OpFamily::group_conv2d; }

bool takes_input_prologue(OpFamily family) { return family == OpFamily::conv2d; }

TunableOp::TunableOp(OpFamily family, std::variant<Conv2dDesc, DenseDesc> desc, ConfigSpace space)
    : family_(family), desc_(std::move(desc)), space_(std::move(space)) {}

TunableOp TunableOp::conv2d(const Conv2dDesc& desc) {
  desc.validate();
  if (desc.is_depthwise()) return {OpFamily::depthwise_conv2d, desc, depthwise_conv2d_space(desc)};
  return {desc.groups > 1 ? OpFamily::group_conv2d : OpFamily::conv2d, desc, conv2d_space(desc)};
}

TunableOp TunableOp::winograd_conv2d(const Conv2dDesc& desc) {
  return {OpFamily::winograd_conv2d, desc, winograd_conv2d_space(desc)};
}

TunableOp TunableOp::gemm_conv2d(const Conv2dDesc& desc) {
  desc.validate();
  if (!gemm_conv2d_applicable(desc))
    throw KernelError("gemm_conv2d needs a 1x1, stride-1, unpadded, ungrouped conv without input scale: " + desc.str());
  return {OpFamily::gemm_conv2d, desc, gemm_conv2d_space(desc)};
}

std::vector<TunableOp> TunableOp::conv2d_algorithms(const Conv2dDesc& desc) {
  std::vector<TunableOp> algorithms{conv2d(desc)};
  if (winograd_applicable(desc)) algorithms.push_back(winograd_conv2d(desc));
  if (gemm_conv2d_applicable(desc)) algorithms.push_back(gemm_conv2d(desc));
  return algorithms;
}

TunableOp TunableOp::conv2d_default_algorithm(const Conv2dDesc& desc) {
  if (winograd_by_default(desc)) return winograd_conv2d(desc);
  return gemm_conv2d_by_default(desc) ? gemm_conv2d(desc) : conv2d(desc);
}

TunableOp TunableOp::dense(const DenseDesc& desc) { return {OpFamily::dense, desc, dense_space(desc)}; }

const Conv2dDesc& TunableOp::conv_desc() const {
  if (const auto* conv = std::get_if<Conv2dDesc>(&desc_)) return *conv;
  throw KernelError("TunableOp " + str() + " is a dense operator, not a convolution");
}

const DenseDesc& TunableOp::dense_desc() const {
  if (const auto* dense = std::get_if<DenseDesc>(&desc_)) return *dense;
  throw KernelError("TunableOp " + str() + " is a convolution, not a dense operator");
}

std::map<std::string, int64_t> TunableOp::knobs(int64_t index) const { return space_.point(index); }

std::optional<int64_t> TunableOp::index_of(const std::map<std::string, int64_t>& knobs) const {
  // Mixed radix, first knob fastest: the inverse of ConfigSpace::point.
  int64_t index = 0;
  int64_t stride = 1;
  size_t named = 0;
  for (const Knob& knob : space_.knobs()) {
    const auto found = knobs.find(knob.name);
    if (found == knobs.end() && !knob.when_absent) return std::nullopt;
    named += found != knobs.end();
    const int64_t value = found != knobs.end() ? found->second : *knob.when_absent;
    const auto position = std::find(knob.values.begin(), knob.values.end(), value);
    if (position == knob.values.end()) return std::nullopt;
    index += stride * (position - knob.values.begin());
    stride *= static_cast<int64_t>(knob.values.size());
  }
  if (named != knobs.size()) return std::nullopt;  // a knob the space does not have
  return index;
}

int64_t TunableOp::default_index() const {
  std::map<std::string, int64_t> knobs;
  switch (family_) {
    case OpFamily::dense:
      knobs = default_dense_knobs(dense_desc());
      break;
    case OpFamily::depthwise_conv2d: knobs = default_depthwise_knobs(conv_desc()); break;
    case OpFamily::winograd_conv2d: knobs = default_winograd_knobs(conv_desc()); break;
    case OpFamily::gemm_conv2d: knobs = default_gemm_knobs(conv_desc()); break;
    case OpFamily::conv2d:
    case OpFamily::group_conv2d: knobs = default_conv_knobs(conv_desc()); break;
  }
  const std::optional<int64_t> index = index_of(knobs);
  if (!index) throw KernelError("the default schedule of " + str() + " is not a point of its space");
  return *index;
}

OpLayouts TunableOp::layouts(int64_t index) const {
  switch (family_) {
    case OpFamily::dense: {
      const DenseLayouts l = dense_layouts(dense_desc(), dense_schedule_at(space_, index));
      return {l.input, l.weight, l.output};
    }
    case OpFamily::depthwise_conv2d: {
      const DepthwiseConv2dLayouts l = depthwise_conv2d_layouts(conv_desc(), depthwise_conv2d_schedule_at(space_, index));
      return {l.input, l.weight, l.output};
    }
    case OpFamily::winograd_conv2d: {
      const Conv2dLayouts l = winograd_conv2d_layouts(conv_desc(), winograd_conv2d_schedule_at(space_, index));
      return {l.input, l.weight, l.output};
    }
    case OpFamily::gemm_conv2d: {
      const Conv2dLayouts l = gemm_conv2d_layouts(conv_desc(), gemm_conv2d_schedule_at(space_, index));
      return {l.input, l.weight, l.output};
    }
    case OpFamily::conv2d:
    case OpFamily::group_conv2d: break;
  }
  const Conv2dLayouts l = conv2d_layouts(conv_desc(), conv2d_schedule_at(space_, index));
  return {l.input, l.weight, l.output};
}

std::vector<int64_t> TunableOp::input_shape() const {
  if (family_ == OpFamily::dense) return {dense_desc().batch, dense_desc().in_features};
  return conv_input_shape(conv_desc());
}

std::vector<int64_t> TunableOp::output_shape() const {
  if (family_ == OpFamily::dense) return {dense_desc().batch, dense_desc().out_features};
  return conv_output_shape(conv_desc());
}

BufferSizes TunableOp::buffer_sizes(int64_t index) const {
  const OpLayouts l = layouts(index);
  if (family_ == OpFamily::dense) return dense_buffer_sizes(dense_desc(), l);
  BufferSizes sizes = conv_buffer_sizes(conv_desc(), l);
  if (family_ == OpFamily::winograd_conv2d)
    sizes.weight = winograd_weight_floats(conv_desc(), winograd_conv2d_schedule_at(space_, index));
  return sizes;
}

std::vector<float> TunableOp::pack_weights(int64_t index, std::span<const float> canonical) const {
  if (family_ == OpFamily::winograd_conv2d)
    return pack_winograd_weights(conv_desc(), winograd_conv2d_schedule_at(space_, index), canonical);
  const bool dense = family_ == OpFamily::dense;
  const std::vector<int64_t> shape =
      dense ? std::vector<int64_t>{dense_desc().out_features, dense_desc().in_features} : conv_weight_shape(conv_desc());
  const layout::Layout plain = dense ? layout::Layout::oi() : layout::Layout::oihw();
  if (static_cast<int64_t>(canonical.size()) != product(shape))
    throw KernelError(str() + ": expected " + std::to_string(product(shape)) + " weights, got " +
                      std::to_string(canonical.size()));
  return layout::LayoutTransform(shape, plain, plain, layouts(index).weight).apply(canonical);
}

Kernel TunableOp::compile(int64_t index) const {
  switch (family_) {
    case OpFamily::dense: return compile_dense(dense_desc(), dense_schedule_at(space_, index));
    case OpFamily::depthwise_conv2d:
      return compile_depthwise_conv2d(conv_desc(), depthwise_conv2d_schedule_at(space_, index));
    case OpFamily::winograd_conv2d:
      return compile_winograd_conv2d(conv_desc(), winograd_conv2d_schedule_at(space_, index));
    case OpFamily::gemm_conv2d: return compile_gemm_conv2d(conv_desc(), gemm_conv2d_schedule_at(space_, index));
    case OpFamily::conv2d:
    case OpFamily::group_conv2d: break;
  }
  return compile_conv2d(conv_desc(), conv2d_schedule_at(space_, index));
}

// Winograd reports the direct algorithm's FLOPs: its GFLOPS are "effective", comparable
// across algorithms (the convention of Winograd papers and benchmarks).
double TunableOp::flops() const {
  return family_ == OpFamily::dense ? dense_desc().flops() : conv_desc().flops();
}

double TunableOp::executed_flops(int64_t index) const {
  if (family_ != OpFamily::winograd_conv2d) return flops();
  return winograd_product_flops(conv_desc(), winograd_conv2d_schedule_at(space_, index));
}

std::string TunableOp::str() const {
  const std::string desc = std::visit([](const auto& d) { return d.str(); }, desc_);
  return std::string(to_string(family_)) + " " + desc;
}

}  // namespace layoutopt::kernels
