#include "layoutopt/kernels/epilogue.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace layoutopt::kernels {

const char* to_string(Activation activation) {
  switch (activation) {
    case Activation::None: return "none";
    case Activation::Relu: return "relu";
    case Activation::Relu6: return "relu6";
    case Activation::HardSwish: return "hard_swish";
    case Activation::HardSigmoid: return "hard_sigmoid";
    case Activation::Silu: return "silu";
    case Activation::Sigmoid: return "sigmoid";
    case Activation::Gelu: return "gelu";
    case Activation::GeluTanh: return "gelu_tanh";
  }
  return "?";
}

double apply_activation(Activation activation, double value) {
  switch (activation) {
    case Activation::None: return value;
    case Activation::Relu: return std::max(value, 0.0);
    case Activation::Relu6: return std::clamp(value, 0.0, 6.0);
    case Activation::HardSwish: return value * std::clamp(value / 6.0 + 0.5, 0.0, 1.0);
    case Activation::HardSigmoid: return std::clamp(value / 6.0 + 0.5, 0.0, 1.0);
    case Activation::Silu: return value / (1.0 + std::exp(-value));
    case Activation::Sigmoid: return 1.0 / (1.0 + std::exp(-value));
    case Activation::Gelu: return 0.5 * value * (1.0 + std::erf(value / std::numbers::sqrt2));
    case Activation::GeluTanh:
      return 0.5 * value * (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (value + 0.044715 * value * value * value)));
  }
  return value;
}

std::string Epilogue::str() const {
  std::string text;
  const auto append = [&text](const std::string& part) { text += (text.empty() ? "" : "+") + part; };
  if (bias) append("bias");
  if (activation != Activation::None) append(to_string(activation));
  if (residual) append("add");
  if (residual && post_residual_activation != Activation::None) append(to_string(post_residual_activation));
  return text.empty() ? "none" : text;
}

}  // namespace layoutopt::kernels
