#include "layoutopt/graph/op_kind.h"

#include <array>
#include <utility>

namespace layoutopt::graph {

namespace {

using enum OpKind;

// One row per kind, in the enum's order (checked below).
constexpr std::array<std::pair<OpKind, std::string_view>, 38> kNames{{
    {conv2d, "conv2d"}, {dense, "dense"}, {batch_norm, "batch_norm"}, {relu, "relu"}, {clip, "clip"},
    {sigmoid, "sigmoid"}, {add, "add"}, {mul, "mul"}, {concat, "concat"}, {max_pool2d, "max_pool2d"},
    {avg_pool2d, "avg_pool2d"}, {global_avg_pool2d, "global_avg_pool2d"}, {flatten, "flatten"},
    {reshape, "reshape"}, {transpose, "transpose"}, {softmax, "softmax"}, {pad, "pad"}, {dropout, "dropout"},
    {identity, "identity"}, {tanh, "tanh"}, {hard_sigmoid, "hard_sigmoid"}, {hard_swish, "hard_swish"},
    {leaky_relu, "leaky_relu"}, {prelu, "prelu"}, {sub, "sub"}, {div, "div"}, {max, "max"}, {min, "min"},
    {reduce_mean, "reduce_mean"}, {conv_transpose2d, "conv_transpose2d"}, {lrn, "lrn"}, {resize, "resize"},
    {slice, "slice"}, {channel_shuffle, "channel_shuffle"}, {silu, "silu"}, {gelu, "gelu"}, {layer_norm, "layer_norm"},
    {batch_matmul, "batch_matmul"},
}};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (static_cast<size_t>(kNames[i].first) != i) return false;
  return static_cast<size_t>(batch_matmul) + 1 == kNames.size();
}
static_assert(in_enum_order(), "kNames must list every OpKind once, in the enum's order");

}  // namespace

std::string_view to_string(OpKind kind) { return kNames[static_cast<size_t>(kind)].second; }

std::optional<OpKind> parse_op_kind(std::string_view name) {
  for (const auto& [kind, spelled] : kNames)
    if (spelled == name) return kind;
  return std::nullopt;
}

}  // namespace layoutopt::graph
