// VGG as torchvision defines it (torchvision/models/vgg.py): configurations A, B, D and E
// of Simonyan & Zisserman, optionally with batch norm after every conv, then
// AdaptiveAvgPool(7x7) and the dropout classifier. Node names are torchvision's module
// indices ("features.0", "classifier.6"), which shift when batch norm is present.

#include <vector>

#include "families.h"
#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

namespace {

constexpr int kPool = 0;  ///< marks a 2x2 max pool in a configuration

struct VggConfig {
  int depth;
  std::vector<int> layers;  ///< conv output channels, or kPool
};

const std::vector<VggConfig>& configs() {
  static const std::vector<VggConfig> table{
      {11, {64, kPool, 128, kPool, 256, 256, kPool, 512, 512, kPool, 512, 512, kPool}},
      {13, {64, 64, kPool, 128, 128, kPool, 256, 256, kPool, 512, 512, kPool, 512, 512, kPool}},
      {16, {64, 64, kPool, 128, 128, kPool, 256, 256, 256, kPool, 512, 512, 512, kPool, 512, 512, 512, kPool}},
      {19, {64, 64, kPool, 128, 128, kPool, 256, 256, 256, 256, kPool, 512, 512, 512, 512, kPool, 512, 512, 512, 512,
            kPool}},
  };
  return table;
}

const VggConfig& config_for(int depth) {
  for (const VggConfig& config : configs())
    if (config.depth == depth) return config;
  throw GraphError("vgg: no configuration for depth " + std::to_string(depth));
}

/// torchvision's `features` Sequential; `index` tracks the module numbering.
ValueId features(NetworkBuilder& net, ValueId x, const VggConfig& config, bool batch_norm) {
  int index = 0;
  auto next_name = [&index] { return "features." + std::to_string(index++); };
  for (int layer : config.layers) {
    if (layer == kPool) {
      x = net.max_pool(x, next_name(), 2, 2);
      continue;
    }
    x = net.conv(x, next_name(), with_bias(square_conv(layer, 3, 1, 1)));
    if (batch_norm) x = net.batch_norm(x, next_name());
    x = net.relu(x, next_name());
  }
  return x;
}

ValueId classifier(NetworkBuilder& net, ValueId x) {
  x = net.relu(net.dense(x, "classifier.0", 4096), "classifier.1");
  x = net.dropout(x, "classifier.2", 0.5f);
  x = net.relu(net.dense(x, "classifier.3", 4096), "classifier.4");
  x = net.dropout(x, "classifier.5", 0.5f);
  return net.dense(x, "classifier.6", 1000);
}

}  // namespace

Graph build_vgg(int depth, bool batch_norm, const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  ValueId x = features(net, net.data(), config_for(depth), batch_norm);
  // At 224x224 the map is already 7x7 and the adaptive pool adds no node.
  x = net.flatten(net.adaptive_avg_pool(x, "avgpool", 7), "flatten");
  net.output(classifier(net, x));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
