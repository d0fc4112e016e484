// ResNet as torchvision defines it (torchvision/models/resnet.py, "ResNet v1.5"): the
// bottleneck's stride sits on its 3x3 conv, and a block whose shape changes gets a
// downsample branch of 1x1 conv + batch norm.

#include "resnet.h"

#include <array>

#include "families.h"
#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

namespace {

struct ResNetConfig {
  int depth;
  bool bottleneck;
  std::array<int, 4> blocks;  ///< residual blocks per stage
};

constexpr std::array<ResNetConfig, 5> kConfigs{{
    {18, false, {2, 2, 2, 2}},
    {34, false, {3, 4, 6, 3}},
    {50, true, {3, 4, 6, 3}},
    {101, true, {3, 4, 23, 3}},
    {152, true, {3, 8, 36, 3}},
}};

const ResNetConfig& config_for(int depth) {
  for (const ResNetConfig& config : kConfigs)
    if (config.depth == depth) return config;
  throw GraphError("resnet: no configuration for depth " + std::to_string(depth));
}

/// One conv of a residual block's main path: output channels, kernel and stride.
struct BlockConv {
  int64_t channels, kernel, stride;
};

/// The main path of a basic block (two 3x3) or a bottleneck (1x1, 3x3, 1x1 expanding 4x).
std::vector<BlockConv> main_path(bool bottleneck, int64_t planes, int64_t stride) {
  if (bottleneck) return {{planes, 1, 1}, {planes, 3, stride}, {planes * 4, 1, 1}};
  return {{planes, 3, stride}, {planes, 3, 1}};
}

ValueId residual_block(NetworkBuilder& net, ValueId x, const std::string& prefix, bool bottleneck, int64_t planes,
                       int64_t stride) {
  const std::vector<BlockConv> path = main_path(bottleneck, planes, stride);
  ValueId y = x;
  for (size_t i = 0; i < path.size(); ++i) {
    const std::string index = std::to_string(i + 1);
    const BlockConv& c = path[i];
    y = net.conv(y, prefix + "conv" + index, square_conv(c.channels, c.kernel, c.stride, c.kernel / 2));
    y = net.batch_norm(y, prefix + "bn" + index);
    // The last conv's activation comes after the residual add.
    if (i + 1 < path.size()) y = net.relu(y, prefix + "relu" + index);
  }
  ValueId shortcut = x;
  if (stride != 1 || net.channels(x) != path.back().channels) {
    shortcut = net.conv(x, prefix + "downsample.0", square_conv(path.back().channels, 1, stride));
    shortcut = net.batch_norm(shortcut, prefix + "downsample.1");
  }
  return net.relu(net.add(y, shortcut, prefix + "add"), prefix + "relu");
}

}  // namespace

std::vector<ValueId> resnet_trunk(NetworkBuilder& net, int depth, ValueId x) {
  const ResNetConfig& config = config_for(depth);
  x = net.conv(x, "conv1", square_conv(64, 7, 2, 3));
  x = net.relu(net.batch_norm(x, "bn1"), "relu");
  x = net.max_pool(x, "maxpool", 3, 2, 1);
  std::vector<ValueId> stage_outputs;
  for (size_t stage = 0; stage < config.blocks.size(); ++stage) {
    const int64_t planes = int64_t{64} << stage;
    for (int block = 0; block < config.blocks[stage]; ++block) {
      // Stages after the first halve the resolution in their first block.
      const int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      const std::string prefix = "layer" + std::to_string(stage + 1) + "." + std::to_string(block) + ".";
      x = residual_block(net, x, prefix, config.bottleneck, planes, stride);
    }
    stage_outputs.push_back(x);
  }
  return stage_outputs;
}

Graph build_resnet(int depth, const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  ValueId x = resnet_trunk(net, depth, net.data()).back();
  x = net.flatten(net.global_avg_pool(x, "avgpool"), "flatten");
  net.output(net.dense(x, "fc", 1000));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
