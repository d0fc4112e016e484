#pragma once
// OpKind: which operator a node runs, as a value (the Op variant's alternative, with pooling
// split by its kind as the names are), so that code grouping or matching steps by operator
// compares values instead of names. The names ("conv2d", "max_pool2d", ...) are for files and
// messages only.

#include <optional>
#include <string_view>

namespace layoutopt::graph {

enum class OpKind {
  conv2d, dense, batch_norm, relu, clip, sigmoid, add, mul, concat, max_pool2d, avg_pool2d,
  global_avg_pool2d, flatten, reshape, transpose, softmax, pad, dropout, identity, tanh,
  hard_sigmoid, hard_swish, leaky_relu, prelu, sub, div, max, min, reduce_mean,
  conv_transpose2d, lrn, resize, slice, channel_shuffle, silu, gelu, layer_norm,
  batch_matmul,
};

/// The stable lower-case name ("conv2d", "max_pool2d", ...): op_name of an op of this kind.
[[nodiscard]] std::string_view to_string(OpKind kind);
/// The kind a name spells; none for a name no operator has.
[[nodiscard]] std::optional<OpKind> parse_op_kind(std::string_view name);

}  // namespace layoutopt::graph
