// SqueezeNet as torchvision defines it (torchvision/models/squeezenet.py): versions 1.0 and
// 1.1 differ only in the stem and where the ceil-mode max pools sit between fire modules.
// No batch norm; every conv has a bias. The classifier is a 1x1 conv to the classes,
// relu, then global average pooling.

#include <vector>

#include "families.h"
#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

namespace {

/// A fire module's squeeze and (each of the two) expand widths, or a max pool.
struct FireOrPool {
  int64_t squeeze = 0, expand = 0;
  [[nodiscard]] bool is_pool() const { return squeeze == 0; }
};

constexpr FireOrPool kPool{};

struct SqueezeNetConfig {
  std::string version;
  int64_t stem_channels, stem_kernel;
  std::vector<FireOrPool> body;  ///< after the stem's conv, relu and first max pool
};

const std::vector<SqueezeNetConfig>& configs() {
  static const std::vector<SqueezeNetConfig> table{
      {"1.0", 96, 7,
       {{16, 64}, {16, 64}, {32, 128}, kPool, {32, 128}, {48, 192}, {48, 192}, {64, 256}, kPool, {64, 256}}},
      {"1.1", 64, 3,
       {{16, 64}, {16, 64}, kPool, {32, 128}, {32, 128}, kPool, {48, 192}, {48, 192}, {64, 256}, {64, 256}}},
  };
  return table;
}

const SqueezeNetConfig& config_for(const std::string& version) {
  for (const SqueezeNetConfig& config : configs())
    if (config.version == version) return config;
  throw GraphError("squeezenet: no version '" + version + "'");
}

ValueId relu_conv(NetworkBuilder& net, ValueId x, const std::string& name, int64_t out, int64_t k, int64_t pad) {
  return net.relu(net.conv(x, name, with_bias(square_conv(out, k, 1, pad))), name + "_activation");
}

ValueId fire(NetworkBuilder& net, ValueId x, const std::string& p, const FireOrPool& widths) {
  x = relu_conv(net, x, p + "squeeze", widths.squeeze, 1, 0);
  const ValueId e1 = relu_conv(net, x, p + "expand1x1", widths.expand, 1, 0);
  const ValueId e3 = relu_conv(net, x, p + "expand3x3", widths.expand, 3, 1);
  return net.concat({e1, e3}, p + "concat");
}

ValueId ceil_max_pool(NetworkBuilder& net, ValueId x, const std::string& name) {
  return net.max_pool(x, name, 3, 2, 0, /*ceil_mode=*/true);
}

}  // namespace

Graph build_squeezenet(const std::string& version, const NetworkSpec& spec) {
  const SqueezeNetConfig& config = config_for(version);
  NetworkBuilder net(spec);
  const ConvSpec stem = with_bias(square_conv(config.stem_channels, config.stem_kernel, 2));
  ValueId x = net.relu(net.conv(net.data(), "features.0", stem), "features.1");
  x = ceil_max_pool(net, x, "features.2");
  int index = 3;
  for (const FireOrPool& layer : config.body) {
    const std::string name = "features." + std::to_string(index++);
    x = layer.is_pool() ? ceil_max_pool(net, x, name) : fire(net, x, name + ".", layer);
  }
  x = net.dropout(x, "classifier.0", 0.5f);
  x = net.relu(net.conv(x, "classifier.1", with_bias(square_conv(1000, 1))), "classifier.2");
  x = net.global_avg_pool(x, "classifier.3");
  net.output(net.flatten(x, "flatten"));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
