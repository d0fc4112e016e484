// DenseNet-BC as torchvision defines it (torchvision/models/densenet.py): growth rate 32,
// bottleneck width 4 * 32, 64 stem channels, transitions halving the channels. The layers
// are pre-activation (batch norm and relu before each conv), so the norms reading a
// concat cannot be folded into a conv and stay in the optimized graph.
//
// torchvision re-concatenates every earlier feature map in each layer; here each layer
// appends its output to the running concat, which computes the same tensors.

#include <array>

#include "families.h"
#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

namespace {

constexpr int64_t kGrowth = 32;
constexpr int64_t kBottleneckWidth = 4 * kGrowth;
constexpr int64_t kStemChannels = 64;

struct DenseNetConfig {
  int depth;
  std::array<int, 4> layers;  ///< dense layers per block
};

constexpr std::array<DenseNetConfig, 3> kConfigs{{
    {121, {6, 12, 24, 16}},
    {169, {6, 12, 32, 32}},
    {201, {6, 12, 48, 32}},
}};

const DenseNetConfig& config_for(int depth) {
  for (const DenseNetConfig& config : kConfigs)
    if (config.depth == depth) return config;
  throw GraphError("densenet: no configuration for depth " + std::to_string(depth));
}

/// BN-ReLU-Conv1x1(4k)-BN-ReLU-Conv3x3(k), appended to the block's running concat.
ValueId dense_layer(NetworkBuilder& net, ValueId features, const std::string& p) {
  ValueId y = net.relu(net.batch_norm(features, p + "norm1"), p + "relu1");
  y = net.conv(y, p + "conv1", square_conv(kBottleneckWidth, 1));
  y = net.relu(net.batch_norm(y, p + "norm2"), p + "relu2");
  y = net.conv(y, p + "conv2", square_conv(kGrowth, 3, 1, 1));
  return net.concat({features, y}, p + "concat");
}

/// BN-ReLU-Conv1x1 halving the channels, then a 2x2 average pool.
ValueId transition(NetworkBuilder& net, ValueId x, const std::string& p) {
  x = net.relu(net.batch_norm(x, p + "norm"), p + "relu");
  x = net.conv(x, p + "conv", square_conv(net.channels(x) / 2, 1));
  return net.avg_pool(x, p + "pool", 2, 2);
}

}  // namespace

Graph build_densenet(int depth, const NetworkSpec& spec) {
  const DenseNetConfig& config = config_for(depth);
  NetworkBuilder net(spec);
  ValueId x = net.conv(net.data(), "features.conv0", square_conv(kStemChannels, 7, 2, 3));
  x = net.relu(net.batch_norm(x, "features.norm0"), "features.relu0");
  x = net.max_pool(x, "features.pool0", 3, 2, 1);
  for (size_t block = 0; block < config.layers.size(); ++block) {
    const std::string block_name = "features.denseblock" + std::to_string(block + 1) + ".";
    for (int layer = 1; layer <= config.layers[block]; ++layer)
      x = dense_layer(net, x, block_name + "denselayer" + std::to_string(layer) + ".");
    if (block + 1 < config.layers.size())
      x = transition(net, x, "features.transition" + std::to_string(block + 1) + ".");
  }
  x = net.relu(net.batch_norm(x, "features.norm5"), "relu");
  x = net.flatten(net.global_avg_pool(x, "avgpool"), "flatten");
  net.output(net.dense(x, "classifier", 1000));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
