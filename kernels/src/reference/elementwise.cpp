#include "layoutopt/kernels/reference/elementwise.h"

#include <algorithm>
#include <cmath>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

/// Index into `shape` (right-aligned inside `out_shape`) of the element at `out_index`,
/// with size-1 axes broadcast.
int64_t broadcast_index(const std::vector<int64_t>& shape, const std::vector<int64_t>& out_shape, int64_t out_index) {
  int64_t index = 0;
  int64_t stride = 1;
  for (size_t k = out_shape.size(); k-- > 0;) {
    const int64_t coordinate = out_index % out_shape[k];
    out_index /= out_shape[k];
    const size_t offset = out_shape.size() - shape.size();
    if (k < offset) continue;
    const int64_t extent = shape[k - offset];
    index += (extent == 1 ? 0 : coordinate) * stride;
    stride *= extent;
  }
  return index;
}

}  // namespace

HostTensor unary(UnaryOp op, const HostTensor& x) {
  HostTensor out = x;
  for (float& v : out.data) v = op == UnaryOp::relu ? std::max(v, 0.0f) : 1.0f / (1.0f + std::exp(-v));
  return out;
}

HostTensor clip(const HostTensor& x, float min, float max) {
  HostTensor out = x;
  for (float& v : out.data) v = std::clamp(v, min, max);
  return out;
}

HostTensor binary(BinaryOp op, const HostTensor& a, const HostTensor& b) {
  std::vector<int64_t> shape(std::max(a.shape.size(), b.shape.size()), 1);
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t from_end = shape.size() - k;
    const int64_t da = from_end <= a.shape.size() ? a.shape[a.shape.size() - from_end] : 1;
    const int64_t db = from_end <= b.shape.size() ? b.shape[b.shape.size() - from_end] : 1;
    if (da != db && da != 1 && db != 1) throw KernelError("reference binary op: shapes do not broadcast");
    shape[k] = std::max(da, db);
  }
  HostTensor out(shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    const float va = a.data[static_cast<size_t>(broadcast_index(a.shape, shape, i))];
    const float vb = b.data[static_cast<size_t>(broadcast_index(b.shape, shape, i))];
    out.data[static_cast<size_t>(i)] = op == BinaryOp::add ? va + vb : va * vb;
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

}  // namespace layoutopt::kernels::reference
