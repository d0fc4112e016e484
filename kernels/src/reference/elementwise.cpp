#include "layoutopt/kernels/reference/elementwise.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "broadcast_index.h"
#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

template <class F>
HostTensor map(const HostTensor& x, F f) {
  HostTensor out = x;
  for (float& v : out.data) v = f(v);
  return out;
}

float apply_unary(UnaryOp op, float v) {
  switch (op) {
    case UnaryOp::relu: return std::max(v, 0.0f);
    case UnaryOp::sigmoid: return 1.0f / (1.0f + std::exp(-v));
    case UnaryOp::tanh: return std::tanh(v);
    case UnaryOp::hard_swish: return v * std::clamp(v / 6.0f + 0.5f, 0.0f, 1.0f);
    case UnaryOp::silu: return v / (1.0f + std::exp(-v));
    case UnaryOp::gelu: return static_cast<float>(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))));
    case UnaryOp::gelu_tanh: {
      const double inner = std::sqrt(2.0 / std::numbers::pi) * (v + 0.044715 * double{v} * v * v);
      return static_cast<float>(0.5 * v * (1.0 + std::tanh(inner)));
    }
  }
  return v;
}

float apply_binary(BinaryOp op, float a, float b) {
  switch (op) {
    case BinaryOp::add: return a + b;
    case BinaryOp::mul: return a * b;
    case BinaryOp::sub: return a - b;
    case BinaryOp::div: return a / b;
    case BinaryOp::max: return std::max(a, b);
    case BinaryOp::min: return std::min(a, b);
    case BinaryOp::prelu: return a >= 0.0f ? a : a * b;
  }
  return a;
}

}  // namespace

HostTensor unary(UnaryOp op, const HostTensor& x) {
  return map(x, [op](float v) { return apply_unary(op, v); });
}

HostTensor clip(const HostTensor& x, float min, float max) {
  return map(x, [=](float v) { return std::clamp(v, min, max); });
}

HostTensor hard_sigmoid(const HostTensor& x, float alpha, float beta) {
  return map(x, [=](float v) { return std::clamp(alpha * v + beta, 0.0f, 1.0f); });
}

HostTensor leaky_relu(const HostTensor& x, float alpha) {
  return map(x, [=](float v) { return v >= 0.0f ? v : alpha * v; });
}

HostTensor binary(BinaryOp op, const HostTensor& a, const HostTensor& b) {
  std::vector<int64_t> shape(std::max(a.shape.size(), b.shape.size()), 1);
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t from_end = shape.size() - k;
    const int64_t da = from_end <= a.shape.size() ? a.shape[a.shape.size() - from_end] : 1;
    const int64_t db = from_end <= b.shape.size() ? b.shape[b.shape.size() - from_end] : 1;
    if (da != db && da != 1 && db != 1) throw KernelError("reference binary op: shapes do not broadcast");
    shape[k] = da == 1 ? db : da;  // an extent of 1 stretches to the other, also to 0
  }
  HostTensor out(shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    const float va = a.data[static_cast<size_t>(broadcast_index(a.shape, shape, i))];
    const float vb = b.data[static_cast<size_t>(broadcast_index(b.shape, shape, i))];
    out.data[static_cast<size_t>(i)] = apply_binary(op, va, vb);
  }
  return out;
}

HostTensor batch_norm(const HostTensor& x, const float* scale, const float* shift, const float* mean,
                      const float* variance, float epsilon) {
  HostTensor out = x;
  const int64_t channels = x.shape.at(1);
  const int64_t inner = element_count(x.shape) / (x.shape[0] * channels);
  for (int64_t i = 0; i < out.size(); ++i) {
    const auto c = static_cast<size_t>((i / inner) % channels);
    const double normalized = (x.data[static_cast<size_t>(i)] - mean[c]) / std::sqrt(double{variance[c]} + epsilon);
    out.data[static_cast<size_t>(i)] = static_cast<float>(normalized * scale[c] + shift[c]);
  }
  return out;
}


HostTensor layer_norm(const HostTensor& x, int64_t axis, const float* scale, const float* shift, float epsilon) {
  HostTensor out = x;
  const int64_t extent = x.shape.at(static_cast<size_t>(axis));
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  const int64_t outer = extent * inner == 0 ? 0 : element_count(x.shape) / (extent * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      // Element k along the axis of this position.
      const auto at = [&](int64_t k) { return static_cast<size_t>((o * extent + k) * inner + i); };
      double sum = 0.0, squares = 0.0;
      for (int64_t k = 0; k < extent; ++k) sum += x.data[at(k)];
      const double mean = sum / static_cast<double>(extent);
      for (int64_t k = 0; k < extent; ++k) squares += (x.data[at(k)] - mean) * (x.data[at(k)] - mean);
      const double inv_std = 1.0 / std::sqrt(squares / static_cast<double>(extent) + epsilon);
      for (int64_t k = 0; k < extent; ++k)
        out.data[at(k)] = static_cast<float>((x.data[at(k)] - mean) * inv_std * scale[k] + shift[k]);
    }
  return out;
}

}  // namespace layoutopt::kernels::reference
