#include "layoutopt/layout/weight_layouts.h"

#include <string>

namespace layoutopt::layout {

namespace {

void require_positive(int64_t value, const char* what) {
  if (value < 1) throw LayoutError(std::string("weights: ") + what + " must be positive, got " + std::to_string(value));
}

}  // namespace

std::vector<int64_t> ConvWeightShape::logical() const {
  require_positive(out_channels, "output channels");
  require_positive(in_channels, "input channels");
  require_positive(kernel_h, "kernel height");
  require_positive(kernel_w, "kernel width");
  require_positive(groups, "groups");
  if (out_channels % groups != 0 || in_channels % groups != 0)
    throw LayoutError("conv weights: " + std::to_string(groups) + " groups do not divide " +
                      std::to_string(out_channels) + " output and " + std::to_string(in_channels) + " input channels");
  return {out_channels, in_channels / groups, kernel_h, kernel_w};
}

Layout conv_weight_layout(int64_t in_block, int64_t out_block) {
  return Layout::oihwio(in_block, out_block);
}

Layout dense_weight_layout(int64_t in_block, int64_t out_block) {
  return Layout::oi().split('I', in_block).split('O', out_block);
}

LayoutTransform conv_weight_transform(const ConvWeightShape& shape, int64_t in_block, int64_t out_block) {
  std::vector<int64_t> logical = shape.logical();
  const int64_t per_group = shape.out_channels / shape.groups;
  if (shape.groups > 1 && per_group % out_block != 0)
    throw LayoutError("grouped conv weights: output block " + std::to_string(out_block) + " does not divide the " +
                      std::to_string(per_group) + " output channels of each of " + std::to_string(shape.groups) +
                      " groups");
  return {std::move(logical), Layout::oihw(), Layout::oihw(), conv_weight_layout(in_block, out_block)};
}

LayoutTransform depthwise_weight_transform(const ConvWeightShape& shape, int64_t block) {
  std::vector<int64_t> logical = shape.logical();
  if (logical[1] != 1)
    throw LayoutError("depthwise weights need one input channel per group, got " + std::to_string(logical[1]) + " (" +
                      std::to_string(shape.in_channels) + " input channels in " + std::to_string(shape.groups) +
                      " groups)");
  return {std::move(logical), Layout::oihw(), Layout::oihw(), conv_weight_layout(1, block)};
}

LayoutTransform dense_weight_transform(int64_t out_features, int64_t in_features, int64_t in_block, int64_t out_block) {
  require_positive(out_features, "output features");
  require_positive(in_features, "input features");
  return {{out_features, in_features}, Layout::oi(), Layout::oi(), dense_weight_layout(in_block, out_block)};
}

}  // namespace layoutopt::layout
