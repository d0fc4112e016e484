#pragma once
// The operators of the IR. Each operator is a small attribute struct; a node holds one of
// them in the `Op` variant, so every switch over operators is checked by the compiler.
//
// Inputs by operator (optional ones at the end, present when the flag says so):
//   Conv2d      x, weight[O, I/groups, KH, KW], (bias[O]), (residual, shaped like the output),
//               (scale[N, I, 1, 1], multiplying x per image and input channel: input_scale),
//               (prologue_scale[I], prologue_shift[I]: prologue)
//   Dense       x[N, I], weight[O, I], (bias[O])
//   BatchNorm   x, scale[C], bias[C], mean[C], variance[C]
//   Add, Mul, Sub, Div, Max, Min
//               a, b            (numpy broadcasting)
//   PRelu       x, slope        (slope broadcast to x, numpy style)
//   ConvTranspose2d
//               x, weight[I, O/groups, KH, KW], (bias[O])
//   Concat      x0, x1, ...     (along `axis`)
//   LayerNorm   x, scale[C], bias[C]   (C: x's extent along `axis`)
//   BatchMatMul a[..., M, K], b[..., K, N]   (leading axes broadcast numpy style)
//   all others  x

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "layoutopt/graph/op_kind.h"

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

/// What a conv, dense or batch norm node applies to its result. hard_swish and hard_sigmoid
/// are PyTorch's (alpha 1/6, beta 1/2), the only ones MobileNet-v3 uses after a conv; silu
/// is x * sigmoid(x), EfficientNet's; sigmoid ends EfficientNet's squeeze-excite branch;
/// gelu and gelu_tanh are the Gelu operator's two forms (ConvNeXt's and ViT's MLPs).
enum class Activation { none, relu, relu6, hard_swish, hard_sigmoid, silu, sigmoid, gelu, gelu_tanh };

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

/// What a conv applies to each input element before its reduction, per input channel c:
/// activation(x * scale[c] + shift[c]). A batch norm with its activation, moved into the
/// conv that reads it: each element is transformed where it is read, never stored.
struct InputPrologue {
  Activation activation = Activation::none;
  bool operator==(const InputPrologue&) const = default;
};

struct Conv2d {
  Hw kernel, stride, dilation;
  Pads2d pads;
  int64_t groups = 1;
  Epilogue epilogue;
  /// The node computes conv(x * scale) with a computed scale[N, C_in, 1, 1], its last input:
  /// squeeze-and-excitation's channel gate read by the conv instead of written by a Mul
  /// (passes/fuse_channel_scales.h fills it in).
  bool input_scale = false;
  /// The node computes conv(activation(x * prologue_scale[c] + prologue_shift[c])), the two
  /// constant [C_in] vectors its last inputs: DenseNet's pre-activation batch norm + ReLU
  /// read by the 1x1 conv that follows instead of written by a pass of its own
  /// (passes/fuse_input_prologues.h fills it in).
  std::optional<InputPrologue> prologue;
  bool operator==(const Conv2d&) const = default;
};

/// Which input of a conv2d node each optional input is, from its flags (the order listed at
/// the top of this file); nullopt when the node has no such input.
struct ConvInputs {
  std::optional<size_t> bias, residual, scale, prologue_scale, prologue_shift;
  size_t count = 2;  ///< inputs in all
};
[[nodiscard]] ConvInputs conv_inputs(const Conv2d& conv);

struct Dense {
  Epilogue epilogue;  ///< residual is not supported on dense
  bool operator==(const Dense&) const = default;
};

struct BatchNorm {
  float epsilon = 1e-5f;
  /// An activation that follows and was fused into the node (passes/fuse_epilogues.h):
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
struct Tanh {
  bool operator==(const Tanh&) const = default;
};
/// max(0, min(1, alpha * x + beta)); PyTorch's hardsigmoid is alpha 1/6, beta 1/2.
struct HardSigmoid {
  float alpha = 0.2f, beta = 0.5f;
  bool operator==(const HardSigmoid&) const = default;
};
/// x * max(0, min(1, x / 6 + 1 / 2)).
struct HardSwish {
  bool operator==(const HardSwish&) const = default;
};
/// x * sigmoid(x) (swish with beta 1); exported by PyTorch as Mul(x, Sigmoid(x)), which
/// passes/recognize_gated_activations.h turns into this node.
struct Silu {
  bool operator==(const Silu&) const = default;
};
/// How GELU's Gaussian CDF is computed: exactly with erf, or with PyTorch's tanh
/// approximation 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
enum class GeluForm { exact, tanh };

/// x * Phi(x), Phi the standard normal CDF: 0.5 * x * (1 + erf(x / sqrt(2))) when exact.
/// Exporters write it as elementwise arithmetic around Erf or Tanh; the importer
/// recognizes both spellings as this node.
struct Gelu {
  GeluForm form = GeluForm::exact;
  bool operator==(const Gelu&) const = default;
};

/// x for x >= 0, alpha * x below.
struct LeakyRelu {
  float alpha = 0.01f;
  bool operator==(const LeakyRelu&) const = default;
};
/// x for x >= 0, slope * x below, with a learned slope (the second input).
struct PRelu {
  bool operator==(const PRelu&) const = default;
};

struct Add {
  bool operator==(const Add&) const = default;
};
struct Mul {
  bool operator==(const Mul&) const = default;
};
struct Sub {
  bool operator==(const Sub&) const = default;
};
struct Div {
  bool operator==(const Div&) const = default;
};
struct Max {
  bool operator==(const Max&) const = default;
};
struct Min {
  bool operator==(const Min&) const = default;
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

/// Mean over `axes` (normalized, ascending); kept as extent-1 dimensions when `keep_dims`.
/// Global pooling written as ReduceMean over H and W imports as GlobalAvgPool instead.
struct ReduceMean {
  std::vector<int64_t> axes;
  bool keep_dims = true;
  bool operator==(const ReduceMean&) const = default;
};

/// Normalizes x to zero mean and unit variance along `axis` (normalized, >= 0), then scales
/// and shifts per position along it: y = (x - mean) / sqrt(var + epsilon) * scale + bias.
/// One axis only: the channel axis of a logical NCHW tensor, the last of a token tensor.
struct LayerNorm {
  int64_t axis = 1;
  float epsilon = 1e-5f;
  bool operator==(const LayerNorm&) const = default;
};

/// Matrix products over the last two axes of two activations, numpy-broadcast over the
/// axes before them (ONNX MatMul between computed tensors: attention's Q K^T and P V).
struct BatchMatMul {
  bool operator==(const BatchMatMul&) const = default;
};

/// The transposed (fractionally strided) 2-D convolution, as ONNX ConvTranspose defines it;
/// `pads` are removed from the full output, `output_padding` is added at the bottom/right.
struct ConvTranspose2d {
  Hw kernel, stride, dilation;
  Pads2d pads;
  Hw output_padding{0, 0};
  int64_t groups = 1;
  bool bias = false;
  bool operator==(const ConvTranspose2d&) const = default;
};

/// Local response normalization across channels (AlexNet-era networks):
/// y = x / (bias + alpha / size * sum of x^2 over `size` neighbouring channels)^beta.
struct Lrn {
  int64_t size = 5;
  float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
  bool operator==(const Lrn&) const = default;
};

enum class ResizeMode { nearest, linear };
/// How an output coordinate maps to an input one (ONNX coordinate_transformation_mode).
enum class ResizeCoordinates { half_pixel, pytorch_half_pixel, align_corners, asymmetric };
/// How nearest mode rounds the mapped coordinate (ONNX nearest_mode).
enum class NearestRounding { round_prefer_floor, round_prefer_ceil, floor, ceil };

/// Spatial resize of an NCHW tensor to `size`. `scale` is what the coordinate mapping divides
/// by: the file's scales when it gave them, else output / input extent (ONNX's rule).
struct Resize {
  ResizeMode mode = ResizeMode::nearest;
  ResizeCoordinates coordinates = ResizeCoordinates::asymmetric;
  NearestRounding rounding = NearestRounding::floor;
  Hw size;
  double scale_h = 1.0, scale_w = 1.0;
  bool operator==(const Resize&) const = default;
};

/// Elements start, start + step, ... before end along one axis (normalized and clamped at
/// import: 0 <= start < end <= extent, step >= 1).
struct Slice {
  int64_t axis = 1;
  int64_t start = 0, end = 0, step = 1;
  bool operator==(const Slice&) const = default;
};

/// ShuffleNet's channel shuffle of an NCHW tensor, the Reshape [N, g, C/g, H, W] ->
/// Transpose (0, 2, 1, 3, 4) -> Reshape [N, C, H, W] chain as one operator: output channel
/// i * groups + j is input channel j * (C / groups) + i.
struct ChannelShuffle {
  int64_t groups = 2;
  bool operator==(const ChannelShuffle&) const = default;
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

using Op = std::variant<Conv2d, Dense, BatchNorm, Relu, Clip, Sigmoid, Add, Mul, Concat, Pool2d, GlobalAvgPool,
                        Flatten, Reshape, Transpose, Softmax, Pad, Dropout, Identity, Tanh, HardSigmoid, HardSwish,
                        LeakyRelu, PRelu, Sub, Div, Max, Min, ReduceMean, ConvTranspose2d, Lrn, Resize, Slice,
                        ChannelShuffle, Silu, Gelu, LayerNorm, BatchMatMul>;

/// The operator's kind, as a value to compare (op_kind.h).
[[nodiscard]] OpKind op_kind(const Op& op);
/// Stable lower-case name of an operator ("conv2d", "max_pool2d", ...), used in messages,
/// JSON and DOT output: to_string(op_kind(op)).
[[nodiscard]] std::string op_name(const Op& op);

/// True for conv2d with groups == in_channels == out_channels / multiplier (depthwise).
[[nodiscard]] bool is_depthwise(const Conv2d& conv, int64_t in_channels);

}  // namespace layoutopt::graph
