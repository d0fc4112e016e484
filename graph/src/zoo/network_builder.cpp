#include "network_builder.h"

#include <utility>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

ConvSpec square_conv(int64_t out_channels, int64_t k, int64_t s, int64_t p) {
  return {.out_channels = out_channels, .kernel = {k, k}, .stride = {s, s}, .pads = uniform_pads(p)};
}

ConvSpec with_bias(ConvSpec spec) {
  spec.bias = true;
  return spec;
}

Pads2d uniform_pads(int64_t p) { return {.top = p, .left = p, .bottom = p, .right = p}; }

NetworkBuilder::NetworkBuilder(const NetworkSpec& spec) : graph_(spec.name), seed_(spec.seed) {
  if (spec.batch < 1)
    throw GraphError("zoo network '" + spec.name + "': batch must be positive, found " + std::to_string(spec.batch));
  if (spec.image_size < 1)
    throw GraphError("zoo network '" + spec.name + "': image size must be positive, found " +
                     std::to_string(spec.image_size));
  data_ = graph_.add_input("data", {{spec.batch, 3, spec.image_size, spec.image_size}});
}

ValueId NetworkBuilder::parameter(const std::string& name, ParameterRole role, const Shape& shape) {
  return graph_.add_parameter(name, shape, seeded_weights(role, shape, parameter_seed(seed_, name)));
}

ValueId NetworkBuilder::conv(ValueId x, const std::string& name, const ConvSpec& spec) {
  const Shape weight_shape{spec.out_channels, channels(x) / spec.groups, spec.kernel.h, spec.kernel.w};
  std::vector<ValueId> inputs{x, parameter(name + ".weight", ParameterRole::conv_weight, weight_shape)};
  if (spec.bias) inputs.push_back(parameter(name + ".bias", ParameterRole::bias, {spec.out_channels}));
  const Conv2d op{.kernel = spec.kernel,
                  .stride = spec.stride,
                  .pads = spec.pads,
                  .groups = spec.groups,
                  .epilogue = {.bias = spec.bias}};
  return graph_.add_node(name, op, std::move(inputs));
}

ValueId NetworkBuilder::batch_norm(ValueId x, const std::string& name, float epsilon) {
  const Shape per_channel{channels(x)};
  std::vector<ValueId> inputs{x, parameter(name + ".weight", ParameterRole::bn_scale, per_channel),
                              parameter(name + ".bias", ParameterRole::bn_shift, per_channel),
                              parameter(name + ".running_mean", ParameterRole::bn_mean, per_channel),
                              parameter(name + ".running_var", ParameterRole::bn_variance, per_channel)};
  return graph_.add_node(name, BatchNorm{.epsilon = epsilon}, std::move(inputs));
}

ValueId NetworkBuilder::relu(ValueId x, const std::string& name) { return graph_.add_node(name, Relu{}, {x}); }

ValueId NetworkBuilder::relu6(ValueId x, const std::string& name) {
  return graph_.add_node(name, Clip{.min = 0.0f, .max = 6.0f}, {x});
}

ValueId NetworkBuilder::max_pool(ValueId x, const std::string& name, int64_t k, int64_t s, int64_t p, bool ceil_mode) {
  const Pool2d op{
      .kind = PoolKind::max, .kernel = {k, k}, .stride = {s, s}, .pads = uniform_pads(p), .ceil_mode = ceil_mode};
  return graph_.add_node(name, op, {x});
}

ValueId NetworkBuilder::avg_pool(ValueId x, const std::string& name, int64_t k, int64_t s, int64_t p,
                                 bool count_include_pad) {
  const Pool2d op{.kind = PoolKind::avg,
                  .kernel = {k, k},
                  .stride = {s, s},
                  .pads = uniform_pads(p),
                  .count_include_pad = count_include_pad};
  return graph_.add_node(name, op, {x});
}

ValueId NetworkBuilder::adaptive_avg_pool(ValueId x, const std::string& name, int64_t size) {
  const int64_t h = shape(x)[2];
  const int64_t w = shape(x)[3];
  if (h == size && w == size) return x;
  // Adaptive pooling over a multiple of the target size is an ordinary pool with equal
  // windows; uneven windows have no Pool2d equivalent.
  if (h != w || h % size != 0)
    throw GraphError("node '" + name + "': adaptive average pooling of a " + std::to_string(h) + "x" +
                     std::to_string(w) + " map to " + std::to_string(size) + "x" + std::to_string(size) +
                     " needs a square map whose side is a multiple of " + std::to_string(size) +
                     "; choose another image size");
  return avg_pool(x, name, h / size, h / size);
}

ValueId NetworkBuilder::global_avg_pool(ValueId x, const std::string& name) {
  return graph_.add_node(name, GlobalAvgPool{}, {x});
}

ValueId NetworkBuilder::flatten(ValueId x, const std::string& name, int64_t axis) {
  return graph_.add_node(name, Flatten{.axis = axis}, {x});
}

ValueId NetworkBuilder::dense(ValueId x, const std::string& name, int64_t out_features) {
  const ValueId weight = parameter(name + ".weight", ParameterRole::dense_weight, {out_features, shape(x).at(1)});
  const ValueId bias = parameter(name + ".bias", ParameterRole::bias, {out_features});
  return graph_.add_node(name, Dense{.epilogue = {.bias = true}}, {x, weight, bias});
}

ValueId NetworkBuilder::dropout(ValueId x, const std::string& name, float ratio) {
  return graph_.add_node(name, Dropout{.ratio = ratio}, {x});
}

ValueId NetworkBuilder::concat(const std::vector<ValueId>& xs, const std::string& name, int64_t axis) {
  return graph_.add_node(name, Concat{.axis = axis}, xs);
}

ValueId NetworkBuilder::add(ValueId a, ValueId b, const std::string& name) {
  return graph_.add_node(name, Add{}, {a, b});
}

ValueId NetworkBuilder::transpose(ValueId x, const std::string& name, std::vector<int64_t> perm) {
  return graph_.add_node(name, Transpose{.perm = std::move(perm)}, {x});
}

ValueId NetworkBuilder::reshape(ValueId x, const std::string& name, std::vector<int64_t> target) {
  return graph_.add_node(name, Reshape{.shape = std::move(target)}, {x});
}

Graph NetworkBuilder::finish() && { return std::move(graph_); }

}  // namespace layoutopt::graph::zoo
