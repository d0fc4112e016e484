#pragma once
// The operators of the IR. Each operator is a small attribute struct; a node holds one of
// them in the `Op` variant, so every switch over operators is checked by the compiler.
//
// Inputs by operator (optional ones at the end, present when the flag says so):
//   Conv2d      x, weight[O, I/groups, KH, KW], (bias[O]), (residual, shaped like the output)
//   Dense       x[N, I], weight[O, I], (bias[O])
//   BatchNorm   x, scale[C], bias[C], mean[C], variance[C]
//   Add, Mul    a, b            (numpy broadcasting)
//   Concat      x0, x1, ...     (along `axis`)
//   all others  x

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace layoutopt::graph {

/// Height and width of a 2-D window, stride or dilation.
struct Hw {
  int64_t h = 1;
  int64_t w = 1;
  bool operator==(const Hw&) const = default;
};

/// Zero padding of a 2-D window: top, left, bottom, right.
struct Pads2d {
  int64_t top = 0, left = 0, bottom = 0, right = 0;
  bool operator==(const Pads2d&) const = default;
};

enum class Activation { none, relu, relu6 };

/// What a conv or dense kernel does after its reduction, in this order:
/// out = post_activation(activation(acc + bias) + residual).
/// `fuse_epilogues` fills it in; a freshly imported graph has bias only.
struct Epilogue {
  bool bias = false;
  Activation activation = Activation::none;
  bool residual = false;
  Activation post_activation = Activation::none;
  bool operator==(const Epilogue&) const = default;
};

struct Conv2d {
  Hw kernel, stride, dilation;
  Pads2d pads;
  int64_t groups = 1;
  Epilogue epilogue;
  bool operator==(const Conv2d&) const = default;
};

struct Dense {
  Epilogue epilogue;  ///< residual is not supported on dense
  bool operator==(const Dense&) const = default;
};

struct BatchNorm {
  float epsilon = 1e-5f;
  /// A relu / relu6 that follows and was fused into the node (passes/fuse_epilogues.h):
  /// DenseNet's BN-ReLU pairs that cannot fold into a conv run as one pass over memory.
  Activation activation = Activation::none;
  bool operator==(const BatchNorm&) const = default;
};

struct Relu {
  bool operator==(const Relu&) const = default;
};

/// Clamp to [min, max]; relu6 is Clip{0, 6}.
struct Clip {
  float min = 0.0f, max = 6.0f;
  bool operator==(const Clip&) const = default;
};

struct Sigmoid {
  bool operator==(const Sigmoid&) const = default;
};
struct Add {
  bool operator==(const Add&) const = default;
};
struct Mul {
  bool operator==(const Mul&) const = default;
};

struct Concat {
  int64_t axis = 1;
  bool operator==(const Concat&) const = default;
};

enum class PoolKind { max, avg };

struct Pool2d {
  PoolKind kind = PoolKind::max;
  Hw kernel, stride;
  Pads2d pads;
  bool ceil_mode = false;
  bool count_include_pad = false;  ///< average pooling only
  bool operator==(const Pool2d&) const = default;
};

struct GlobalAvgPool {
  bool operator==(const GlobalAvgPool&) const = default;
};

/// Flattens dimensions [axis, rank) into one: [N, C, H, W] -> [N, C*H*W] for axis 1.
struct Flatten {
  int64_t axis = 1;
  bool operator==(const Flatten&) const = default;
};

/// Target shape with ONNX semantics: 0 copies the input dimension, one -1 is inferred.
struct Reshape {
  std::vector<int64_t> shape;
  bool operator==(const Reshape&) const = default;
};

struct Transpose {
  std::vector<int64_t> perm;
  bool operator==(const Transpose&) const = default;
};

struct Softmax {
  int64_t axis = -1;
  bool operator==(const Softmax&) const = default;
};

/// Constant padding of the spatial dimensions of a 4-D tensor.
struct Pad {
  Pads2d pads;
  float value = 0.0f;
  bool operator==(const Pad&) const = default;
};

struct Dropout {
  float ratio = 0.5f;
  bool operator==(const Dropout&) const = default;
};

struct Identity {
  bool operator==(const Identity&) const = default;
};

using Op = std::variant<Conv2d, Dense, BatchNorm, Relu, Clip, Sigmoid, Add, Mul, Concat, Pool2d,
                        GlobalAvgPool, Flatten, Reshape, Transpose, Softmax, Pad, Dropout, Identity>;

/// Stable lower-case name of an operator ("conv2d", "max_pool2d", ...), used in messages,
/// JSON and DOT output.
[[nodiscard]] std::string op_name(const Op& op);

/// True for conv2d with groups == in_channels == out_channels / multiplier (depthwise).
[[nodiscard]] bool is_depthwise(const Conv2d& conv, int64_t in_channels);

}  // namespace layoutopt::graph
