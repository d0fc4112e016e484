#pragma once
// Fused epilogue of conv2d / dense kernels: what happens to each accumulated output value
// before it is stored. Order: + bias, activation, + residual, post-residual activation; this
// covers conv+bn(folded into weights and bias)+relu and ResNet's conv+bn+add+relu in one pass.
// hard_swish and hard_sigmoid are PyTorch's (alpha 1/6, beta 1/2): MobileNet-v3's conv and
// squeeze-excite activations; silu (x * sigmoid(x)) is EfficientNet's, sigmoid its
// squeeze-excite gate; Gelu is x * Phi(x) with erf, GeluTanh PyTorch's tanh approximation.

#include <string>

namespace layoutopt::kernels {

enum class Activation { None, Relu, Relu6, HardSwish, HardSigmoid, Silu, Sigmoid, Gelu, GeluTanh };

struct Epilogue {
  bool bias = false;      ///< add bias[out_channel] (plain, unblocked vector of out_channels)
  Activation activation = Activation::None;
  bool residual = false;  ///< add a tensor of the output's shape and layout
  Activation post_residual_activation = Activation::None;  ///< only meaningful with residual

  bool operator==(const Epilogue&) const = default;
  /// Short stable text, e.g. "bias+relu+add+relu"; "none" for the identity epilogue.
  [[nodiscard]] std::string str() const;
};

[[nodiscard]] const char* to_string(Activation activation);

/// Applies an activation to one scalar; the reference implementations share it.
[[nodiscard]] double apply_activation(Activation activation, double value);

}  // namespace layoutopt::kernels
