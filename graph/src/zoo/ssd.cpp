// SSD-512 on ResNet-50 after GluonCV's ssd_512_resnet50_v1_voc (gluoncv/model_zoo/ssd/
// ssd.py, gluoncv/nn/feature.py FeatureExpander, gluoncv/nn/predictor.py ConvPredictor),
// on our torchvision ResNet-50 trunk. Differences from GluonCV, both shape-preserving:
// GluonCV's resnet50_v1 strides the bottleneck's first 1x1 conv rather than its 3x3, and
// its extra layers' batch norms use MXNet's epsilon (1e-3), kept here.
//
// The graph ends at the raw predictions: class scores [N, anchors, 21] and box offsets
// [N, anchors, 4]. Anchor generation, box decoding, softmax and NMS are post-processing
// outside the graph.

#include <algorithm>
#include <array>
#include <cmath>

#include "families.h"
#include "resnet.h"

namespace layoutopt::graph::zoo {

namespace {

constexpr int64_t kClasses = 20 + 1;  ///< Pascal VOC classes and background
constexpr int64_t kBoxCoordinates = 4;
/// Extra feature layers appended after the trunk (GluonCV's `filters`).
constexpr std::array<int64_t, 4> kExtraFilters{512, 512, 256, 256};
/// GluonCV's defaults (reduce_ratio=1.0, min_depth=128; the preset overrides neither):
/// the 1x1 transition before each extra layer keeps the layer's width.
constexpr double kTransitionRatio = 1.0;
constexpr int64_t kMinTransitionChannels = 128;
/// Anchors per position on each of the six feature maps: 2 sizes + ratios - 1.
constexpr std::array<int64_t, 6> kAnchors{4, 6, 6, 6, 4, 4};
constexpr float kMxnetEpsilon = 1e-3f;

ValueId conv_bn_relu(NetworkBuilder& net, ValueId x, const ConvSpec& spec, const std::string& conv,
                     const std::string& bn, const std::string& relu) {
  return net.relu(net.batch_norm(net.conv(x, conv, spec), bn, kMxnetEpsilon), relu);
}

/// FeatureExpander: each extra layer is a 1x1 transition and a stride-2 3x3 conv.
std::vector<ValueId> extra_features(NetworkBuilder& net, ValueId x) {
  std::vector<ValueId> maps;
  for (size_t i = 0; i < kExtraFilters.size(); ++i) {
    const int64_t f = kExtraFilters[i];
    const std::string id = std::to_string(i);
    const int64_t transition =
        std::max(kMinTransitionChannels, static_cast<int64_t>(std::lround(static_cast<double>(f) * kTransitionRatio)));
    x = conv_bn_relu(net, x, square_conv(transition, 1), "expand_trans_conv" + id, "expand_trans_bn" + id,
                     "expand_trans_relu" + id);
    x = conv_bn_relu(net, x, square_conv(f, 3, 2, 1), "expand_conv" + id, "expand_bn" + id, "expand_relu" + id);
    maps.push_back(x);
  }
  return maps;
}

/// ConvPredictor on every map, each result made [N, H*W*channels] in NHWC order, then
/// all concatenated and reshaped to [N, anchors, values_per_anchor].
ValueId predictions(NetworkBuilder& net, const std::vector<ValueId>& maps, const std::string& head,
                    int64_t values_per_anchor, const std::string& output_name) {
  std::vector<ValueId> flat;
  for (size_t i = 0; i < maps.size(); ++i) {
    const std::string name = head + "." + std::to_string(i);
    const ValueId y = net.conv(maps[i], name, with_bias(square_conv(kAnchors[i] * values_per_anchor, 3, 1, 1)));
    flat.push_back(net.flatten(net.transpose(y, name + ".transpose", {0, 2, 3, 1}), name + ".flatten"));
  }
  const ValueId all = net.concat(flat, head + ".concat");
  return net.reshape(all, output_name, {0, -1, values_per_anchor});
}

}  // namespace

Graph build_ssd_resnet50(const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  const std::vector<ValueId> stages = resnet_trunk(net, 50, net.data());
  // Predictions come from stage 3 (stride 16), stage 4 (stride 32) and four extra maps.
  std::vector<ValueId> maps{stages[2], stages[3]};
  for (ValueId extra : extra_features(net, stages[3])) maps.push_back(extra);
  net.output(predictions(net, maps, "class_predictors", kClasses, "cls_preds"));
  net.output(predictions(net, maps, "box_predictors", kBoxCoordinates, "box_preds"));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
