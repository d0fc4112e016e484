#pragma once
// Small hand-built graphs shared by the graph tests.

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/weight_init.h"

namespace layoutopt::graph::testing {

inline ValueId parameter(Graph& g, const std::string& name, Shape shape, ParameterRole role) {
  const uint64_t seed = parameter_seed(7, name);
  return g.add_parameter(name, shape, seeded_weights(role, shape, seed));
}

inline Conv2d conv_attrs(int64_t k, int64_t stride, int64_t pad, int64_t groups = 1) {
  return Conv2d{.kernel = {k, k}, .stride = {stride, stride}, .pads = {pad, pad, pad, pad}, .groups = groups};
}

inline ValueId conv(Graph& g, const std::string& name, ValueId x, int64_t out, int64_t k, int64_t stride, int64_t pad) {
  const int64_t in = g.value(x).type.shape[1];
  const ValueId w = parameter(g, name + ".weight", {out, in, k, k}, ParameterRole::conv_weight);
  return g.add_node(name, conv_attrs(k, stride, pad), {x, w});
}

inline ValueId batch_norm(Graph& g, const std::string& name, ValueId x) {
  const int64_t c = g.value(x).type.shape[1];
  const ValueId scale = parameter(g, name + ".weight", {c}, ParameterRole::bn_scale);
  const ValueId shift = parameter(g, name + ".bias", {c}, ParameterRole::bn_shift);
  const ValueId mean = parameter(g, name + ".running_mean", {c}, ParameterRole::bn_mean);
  const ValueId var = parameter(g, name + ".running_var", {c}, ParameterRole::bn_variance);
  return g.add_node(name, BatchNorm{}, {x, scale, shift, mean, var});
}

/// A resnet basic block: conv-bn-relu-conv-bn + identity, relu; then a dropout and a dense head.
// Torchvision's Inception-v3 pattern and its conv twin: explicit zero pads read by an
// average pool without padding of its own and by a conv, next to pads that must stay (a
// non-zero value, a max pool reader, two readers).
inline Graph explicit_pads() {
  Graph g("explicit_pads");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId to_avg = g.add_node("pad_avg", Pad{Pads2d{1, 1, 1, 1}, 0.0F}, {x});
  g.add_output(g.add_node("avg", Pool2d{.kind = PoolKind::avg, .kernel = {3, 3}, .stride = {1, 1}}, {to_avg}));
  const ValueId to_conv = g.add_node("pad_conv", Pad{Pads2d{0, 1, 2, 1}, 0.0F}, {x});
  g.add_output(conv(g, "conv", to_conv, 4, 3, 1, 1));
  const ValueId ones = g.add_node("pad_ones", Pad{Pads2d{1, 1, 1, 1}, 1.0F}, {x});
  g.add_output(g.add_node("avg_ones", Pool2d{.kind = PoolKind::avg, .kernel = {3, 3}, .stride = {1, 1}}, {ones}));
  const ValueId to_max = g.add_node("pad_max", Pad{Pads2d{1, 1, 1, 1}, 0.0F}, {x});
  g.add_output(g.add_node("max", Pool2d{.kind = PoolKind::max, .kernel = {3, 3}, .stride = {1, 1}}, {to_max}));
  const ValueId shared = g.add_node("pad_shared", Pad{Pads2d{1, 1, 1, 1}, 0.0F}, {x});
  g.add_output(g.add_node("avg_shared", Pool2d{.kind = PoolKind::avg, .kernel = {3, 3}, .stride = {1, 1}}, {shared}));
  g.add_output(g.add_node("relu_shared", Relu{}, {shared}));
  return g;
}

/// DenseNet's transition and the pairs that look like it but must keep their order: a 1x1
/// conv with bias read only by an average pool 2x2 ("t_conv" -> "t_pool", the one to
/// exchange); then a ReLU between ("relu"), a 3x3 conv ("k3"), a pool that counts its
/// padding ("padded"), one that keeps the image's size ("same"), a max pool ("max") and a
/// conv with a second reader ("shared").
inline Graph pooled_projections() {
  Graph g("pooled_projections");
  const ValueId x = g.add_input("x", {{1, 8, 8, 8}});
  const ValueId w = parameter(g, "t_conv.weight", {4, 8, 1, 1}, ParameterRole::conv_weight);
  const ValueId b = parameter(g, "t_conv.bias", {4}, ParameterRole::bias);
  const ValueId t = g.add_node("t_conv", Conv2d{.epilogue = {.bias = true}}, {x, w, b});
  const Pool2d average{.kind = PoolKind::avg, .kernel = {2, 2}, .stride = {2, 2}};
  g.add_output(g.add_node("t_pool", average, {t}));
  g.add_output(g.add_node("relu_pool", average, {g.add_node("relu", Relu{}, {conv(g, "relu_conv", x, 4, 1, 1, 0)})}));
  g.add_output(g.add_node("k3_pool", average, {conv(g, "k3", x, 4, 3, 1, 1)}));
  const Pool2d counting{
      .kind = PoolKind::avg, .kernel = {3, 3}, .stride = {2, 2}, .pads = {1, 1, 1, 1}, .count_include_pad = true};
  g.add_output(g.add_node("padded_pool", counting, {conv(g, "padded", x, 4, 1, 1, 0)}));
  const Pool2d identity{.kind = PoolKind::avg};
  g.add_output(g.add_node("same_pool", identity, {conv(g, "same", x, 4, 1, 1, 0)}));
  const Pool2d max{.kind = PoolKind::max, .kernel = {2, 2}, .stride = {2, 2}};
  g.add_output(g.add_node("max_pool", max, {conv(g, "max", x, 4, 1, 1, 0)}));
  const ValueId shared = conv(g, "shared", x, 4, 1, 1, 0);
  g.add_output(g.add_node("shared_pool", average, {shared}));
  g.add_output(shared);
  return g;
}

/// ResNet's projection shortcut and its neighbours: a 1x1 stride-2 conv ("proj", to split),
/// a 1x1 conv with stride (2, 1) ("tall"), and ones to keep: a padded strided 1x1 conv
/// ("padded"), a strided 3x3 conv ("k3") and a unit-stride 1x1 conv ("unit").
inline Graph strided_projections() {
  Graph g("strided_projections");
  const ValueId x = g.add_input("x", {{1, 8, 7, 7}});
  g.add_output(g.add_node("proj_relu", Relu{}, {conv(g, "proj", x, 4, 1, 2, 0)}));
  const ValueId tall_weight = parameter(g, "tall.weight", {4, 8, 1, 1}, ParameterRole::conv_weight);
  g.add_output(g.add_node("tall", Conv2d{.stride = {2, 1}}, {x, tall_weight}));
  g.add_output(conv(g, "padded", x, 4, 1, 2, 1));
  g.add_output(conv(g, "k3", x, 4, 3, 2, 1));
  g.add_output(conv(g, "unit", x, 4, 1, 1, 0));
  return g;
}

/// ResNet-50's projection block: "stem" (3x3, relu) -> "conv1" (1x1, relu) -> "conv2" (3x3
/// stride 2, relu) -> "conv3" (1x1) -> "bn3", plus "downsample" (1x1 stride 2 of the stem)
/// -> "bn_ds"; "add" -> "relu". Then sums of convs to keep apart: a 3x3 term ("k3_sum"), a
/// term also read as a graph output ("shared_sum") and a term of the graph input ("input_sum").
inline Graph projection_block() {
  Graph g("projection_block");
  const ValueId x = g.add_input("x", {{1, 8, 8, 8}});
  const ValueId stem = g.add_node("stem_relu", Relu{}, {conv(g, "stem", x, 16, 3, 1, 1)});
  const ValueId y1 = g.add_node("relu1", Relu{}, {conv(g, "conv1", stem, 8, 1, 1, 0)});
  ValueId y = g.add_node("relu2", Relu{}, {conv(g, "conv2", y1, 8, 3, 2, 1)});
  y = batch_norm(g, "bn3", conv(g, "conv3", y, 32, 1, 1, 0));
  const ValueId shortcut = batch_norm(g, "bn_ds", conv(g, "downsample", stem, 32, 1, 2, 0));
  g.add_output(g.add_node("relu", Relu{}, {g.add_node("add", Add{}, {y, shortcut})}));

  g.add_output(g.add_node("k3_sum", Add{}, {conv(g, "k3", stem, 16, 3, 1, 1), conv(g, "k3_other", y1, 16, 1, 1, 0)}));
  const ValueId shared = conv(g, "shared", stem, 16, 1, 1, 0);
  g.add_output(g.add_node("shared_sum", Add{}, {shared, conv(g, "shared_other", y1, 16, 1, 1, 0)}));
  g.add_output(shared);
  const ValueId input_term = conv(g, "input_term", x, 16, 1, 1, 0);
  g.add_output(g.add_node("input_sum", Add{}, {input_term, conv(g, "input_other", stem, 16, 1, 1, 0)}));
  return g;
}

inline Graph residual_block() {
  Graph g("residual_block");
  const ValueId x = g.add_input("data", {{1, 8, 10, 10}});
  ValueId y = conv(g, "conv1", x, 8, 3, 1, 1);
  y = batch_norm(g, "bn1", y);
  y = g.add_node("relu1", Relu{}, {y});
  y = conv(g, "conv2", y, 8, 3, 1, 1);
  y = batch_norm(g, "bn2", y);
  y = g.add_node("add", Add{}, {y, x});
  y = g.add_node("relu2", Relu{}, {y});
  y = g.add_node("pool", GlobalAvgPool{}, {y});
  y = g.add_node("flatten", Flatten{}, {y});
  y = g.add_node("drop", Dropout{}, {y});
  const ValueId w = parameter(g, "fc.weight", {4, 8}, ParameterRole::dense_weight);
  const ValueId b = parameter(g, "fc.bias", {4}, ParameterRole::bias);
  y = g.add_node("fc", Dense{.epilogue = {.bias = true}}, {y, w, b});
  g.add_output(y);
  return g;
}

/// How squeeze_excite_block varies its pattern.
struct SqueezeExcite {
  int64_t batch = 1;
  Op gate = Sigmoid{};            ///< the excite branch's last activation
  int64_t projection_kernel = 1;  ///< the conv reading the scaled tensor: k x k, padded to keep the size
  int64_t projection_groups = 1;
  bool scale_first = false;       ///< Mul(gate, x) instead of Mul(x, gate)
};

/// EfficientNet's block as PyTorch exports it: "expand" 1x1 conv -> relu -> "dw" depthwise
/// 3x3 -> silu -> squeeze-excite ("squeeze" pool -> "reduce" 1x1 conv -> relu -> "excite"
/// 1x1 conv -> "gate") -> "scale" = Mul(x, gate) -> "project" conv -> "add" of the block input.
inline Graph squeeze_excite_block(const SqueezeExcite& se = {}) {
  Graph g("squeeze_excite");
  const ValueId x = g.add_input("x", {{se.batch, 8, 6, 6}});
  const ValueId expanded = g.add_node("expand_relu", Relu{}, {conv(g, "expand", x, 16, 1, 1, 0)});
  const ValueId dw_weight = parameter(g, "dw.weight", {16, 1, 3, 3}, ParameterRole::conv_weight);
  const ValueId dw =
      g.add_node("dw", Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}, .groups = 16}, {expanded, dw_weight});
  const ValueId features = g.add_node("dw_silu", Silu{}, {dw});
  const ValueId squeezed = g.add_node("squeeze", GlobalAvgPool{}, {features});
  const ValueId reduced = g.add_node("reduce_relu", Relu{}, {conv(g, "reduce", squeezed, 4, 1, 1, 0)});
  const ValueId gate = g.add_node("gate", se.gate, {conv(g, "excite", reduced, 16, 1, 1, 0)});
  const ValueId scaled =
      g.add_node("scale", Mul{}, se.scale_first ? std::vector{gate, features} : std::vector{features, gate});
  const int64_t k = se.projection_kernel;
  const ValueId project_weight =
      parameter(g, "project.weight", {8, 16 / se.projection_groups, k, k}, ParameterRole::conv_weight);
  const int64_t pad = (k - 1) / 2;
  const ValueId projected = g.add_node(
      "project", Conv2d{.kernel = {k, k}, .pads = {pad, pad, pad, pad}, .groups = se.projection_groups},
      {scaled, project_weight});
  g.add_output(g.add_node("add", Add{}, {projected, x}));
  return g;
}

}  // namespace layoutopt::graph::testing
