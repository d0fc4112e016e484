// MobileNet v1 as Keras defines it (keras/applications/mobilenet.py, width 1.0) and
// MobileNetV2 as torchvision defines it (torchvision/models/mobilenetv2.py). Both use
// relu6; v1 keeps Keras's TensorFlow "same" padding (asymmetric for stride 2) and its
// 1x1-conv classifier, so parameter counts match Keras's trainable parameters.

#include <algorithm>
#include <array>
#include <utility>

#include "families.h"

namespace layoutopt::graph::zoo {

namespace {

/// Node names of one conv + batch norm + activation unit, in the reference's convention.
struct UnitNames {
  std::string conv, bn, act;
};

ValueId conv_bn_relu6(NetworkBuilder& net, ValueId x, const ConvSpec& spec, const UnitNames& names, float epsilon) {
  return net.relu6(net.batch_norm(net.conv(x, names.conv, spec), names.bn, epsilon), names.act);
}

// ---- MobileNet v1 (Keras) ----

/// Keras's batch norm default epsilon.
constexpr float kKerasEpsilon = 1e-3f;

/// TensorFlow "same" padding along one axis: output ceil(in / stride), any odd pixel of
/// padding goes at the end.
std::pair<int64_t, int64_t> same_padding(int64_t in, int64_t kernel, int64_t stride) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + kernel - in, 0);
  return {total / 2, total - total / 2};
}

ConvSpec same_conv(const NetworkBuilder& net, ValueId x, int64_t out_channels, int64_t kernel, int64_t stride) {
  const auto [top, bottom] = same_padding(net.shape(x)[2], kernel, stride);
  const auto [left, right] = same_padding(net.shape(x)[3], kernel, stride);
  return {.out_channels = out_channels,
          .kernel = {kernel, kernel},
          .stride = {stride, stride},
          .pads = {.top = top, .left = left, .bottom = bottom, .right = right}};
}

UnitNames keras_names(const std::string& conv) { return {conv, conv + "_bn", conv + "_relu"}; }

/// Depthwise 3x3 then pointwise 1x1, each followed by batch norm and relu6.
ValueId depthwise_separable(NetworkBuilder& net, ValueId x, int id, int64_t out_channels, int64_t stride) {
  const std::string suffix = "_" + std::to_string(id);
  ConvSpec depthwise = same_conv(net, x, net.channels(x), 3, stride);
  depthwise.groups = net.channels(x);
  x = conv_bn_relu6(net, x, depthwise, keras_names("conv_dw" + suffix), kKerasEpsilon);
  return conv_bn_relu6(net, x, square_conv(out_channels, 1), keras_names("conv_pw" + suffix), kKerasEpsilon);
}

struct SeparableBlock {
  int64_t out_channels, stride;
};

/// Output channels and stride of the 13 depthwise-separable blocks (Howard et al., table 1).
constexpr std::array<SeparableBlock, 13> kV1Blocks{{
    {64, 1}, {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2},  //
    {512, 1}, {512, 1}, {512, 1}, {512, 1}, {512, 1},           // five blocks at 14x14
    {1024, 2}, {1024, 1},
}};

// ---- MobileNetV2 (torchvision) ----

/// PyTorch's batch norm default epsilon.
constexpr float kTorchEpsilon = 1e-5f;

/// torchvision's inverted residual settings: expansion t, channels c, repeats n, stride s.
struct InvertedResidualStage {
  int64_t expansion, channels, repeats, stride;
};

constexpr std::array<InvertedResidualStage, 7> kV2Stages{
    {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}}};

/// torchvision's Conv2dNormActivation: a Sequential of conv ".0", bn ".1", relu6 ".2".
UnitNames torchvision_names(const std::string& prefix) { return {prefix + ".0", prefix + ".1", prefix + ".2"}; }

/// Expand 1x1 (skipped for expansion 1), depthwise 3x3, linear projection 1x1; a residual
/// connection when the block keeps the shape. `index` counts the Sequential's modules.
ValueId inverted_residual(NetworkBuilder& net, ValueId x, const std::string& prefix, int64_t expansion,
                          int64_t out_channels, int64_t stride) {
  const int64_t hidden = net.channels(x) * expansion;
  int index = 0;
  auto next = [&] { return prefix + ".conv." + std::to_string(index++); };
  ValueId y = x;
  if (expansion != 1) y = conv_bn_relu6(net, y, square_conv(hidden, 1), torchvision_names(next()), kTorchEpsilon);
  ConvSpec depthwise = square_conv(hidden, 3, stride, 1);
  depthwise.groups = hidden;
  y = conv_bn_relu6(net, y, depthwise, torchvision_names(next()), kTorchEpsilon);
  y = net.conv(y, next(), square_conv(out_channels, 1));
  y = net.batch_norm(y, next());
  const bool keeps_shape = stride == 1 && net.channels(x) == out_channels;
  return keeps_shape ? net.add(x, y, prefix + ".add") : y;
}

}  // namespace

Graph build_mobilenet_v1(const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  ValueId x = conv_bn_relu6(net, net.data(), same_conv(net, net.data(), 32, 3, 2), keras_names("conv1"), kKerasEpsilon);
  for (size_t i = 0; i < kV1Blocks.size(); ++i)
    x = depthwise_separable(net, x, static_cast<int>(i + 1), kV1Blocks[i].out_channels, kV1Blocks[i].stride);
  x = net.global_avg_pool(x, "global_average_pooling2d");
  x = net.dropout(x, "dropout", 1e-3f);
  x = net.conv(x, "conv_preds", with_bias(square_conv(1000, 1)));
  net.output(net.flatten(x, "reshape_2"));
  return std::move(net).finish();
}

Graph build_mobilenet_v2(const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  ValueId x = conv_bn_relu6(net, net.data(), square_conv(32, 3, 2, 1), torchvision_names("features.0"), kTorchEpsilon);
  int feature = 1;
  for (const InvertedResidualStage& stage : kV2Stages)
    for (int64_t i = 0; i < stage.repeats; ++i) {
      const int64_t stride = i == 0 ? stage.stride : 1;
      x = inverted_residual(net, x, "features." + std::to_string(feature++), stage.expansion, stage.channels, stride);
    }
  x = conv_bn_relu6(net, x, square_conv(1280, 1), torchvision_names("features." + std::to_string(feature)),
                    kTorchEpsilon);
  x = net.flatten(net.global_avg_pool(x, "avgpool"), "flatten");
  x = net.dropout(x, "classifier.0", 0.2f);
  net.output(net.dense(x, "classifier.1", 1000));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
