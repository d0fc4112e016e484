#include "layoutopt/kernels/reference/tensor_ops.h"

#include <algorithm>
#include <cmath>

#include "broadcast_index.h"
#include "layoutopt/graph/op_type_inference.h"
#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

int64_t normalize(int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<int64_t>(rank) : axis; }

/// Splits a shape around `axis` into (outer, extent, inner) element counts.
struct AxisSplit {
  int64_t outer = 1, extent = 1, inner = 1;
};
AxisSplit split_at(const std::vector<int64_t>& shape, int64_t axis) {
  AxisSplit split;
  for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); ++k) {
    const int64_t e = shape[static_cast<size_t>(k)];
    if (k < axis) split.outer *= e;
    else if (k == axis) split.extent = e;
    else split.inner *= e;
  }
  return split;
}

}  // namespace

HostTensor concat(const std::vector<const HostTensor*>& inputs, int64_t axis) {
  if (inputs.empty()) throw KernelError("reference concat: no inputs");
  axis = normalize(axis, inputs[0]->shape.size());
  std::vector<int64_t> shape = inputs[0]->shape;
  shape[static_cast<size_t>(axis)] = 0;
  for (const HostTensor* input : inputs) shape[static_cast<size_t>(axis)] += input->shape[static_cast<size_t>(axis)];
  HostTensor out(shape);
  const AxisSplit whole = split_at(shape, axis);
  int64_t offset = 0;
  for (const HostTensor* input : inputs) {
    const AxisSplit part = split_at(input->shape, axis);
    for (int64_t o = 0; o < part.outer; ++o)
      for (int64_t i = 0; i < part.extent * part.inner; ++i)
        out.data[static_cast<size_t>((o * whole.extent + offset) * whole.inner + i)] =
            input->data[static_cast<size_t>(o * part.extent * part.inner + i)];
    offset += part.extent;
  }
  return out;
}

HostTensor pad2d(const HostTensor& x, int64_t top, int64_t left, int64_t bottom, int64_t right, float value) {
  const int64_t planes = x.shape[0] * x.shape[1], h = x.shape[2], w = x.shape[3];
  HostTensor out({x.shape[0], x.shape[1], h + top + bottom, w + left + right});
  std::fill(out.data.begin(), out.data.end(), value);
  const int64_t oh = out.shape[2], ow = out.shape[3];
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t xx = 0; xx < w; ++xx)
        out.data[static_cast<size_t>((p * oh + y + top) * ow + xx + left)] = x.data[static_cast<size_t>((p * h + y) * w + xx)];
  return out;
}

HostTensor transpose(const HostTensor& x, const std::vector<int64_t>& perm) {
  const size_t rank = x.shape.size();
  std::vector<int64_t> shape(rank), in_strides(rank, 1);
  for (size_t k = rank - 1; k > 0; --k) in_strides[k - 1] = in_strides[k] * x.shape[k];
  for (size_t k = 0; k < rank; ++k) shape[k] = x.shape[static_cast<size_t>(perm[k])];
  HostTensor out(shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t rest = i, source = 0;
    for (size_t k = rank; k-- > 0;) {
      source += (rest % shape[k]) * in_strides[static_cast<size_t>(perm[k])];
      rest /= shape[k];
    }
    out.data[static_cast<size_t>(i)] = x.data[static_cast<size_t>(source)];
  }
  return out;
}

HostTensor softmax(const HostTensor& x, int64_t axis) {
  const AxisSplit s = split_at(x.shape, normalize(axis, x.shape.size()));
  HostTensor out = x;
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      auto at = [&](int64_t k) -> float& { return out.data[static_cast<size_t>((o * s.extent + k) * s.inner + i)]; };
      double max = at(0);
      for (int64_t k = 1; k < s.extent; ++k) max = std::max(max, double{at(k)});
      double sum = 0.0;
      for (int64_t k = 0; k < s.extent; ++k) sum += std::exp(at(k) - max);
      for (int64_t k = 0; k < s.extent; ++k) at(k) = static_cast<float>(std::exp(at(k) - max) / sum);
    }
  return out;
}

HostTensor reshape(const HostTensor& x, std::vector<int64_t> shape) {
  if (element_count(shape) != x.size()) throw KernelError("reference reshape: element counts differ");
  HostTensor out;
  out.shape = std::move(shape);
  out.data = x.data;
  return out;
}

HostTensor reduce_mean(const HostTensor& x, const std::vector<int64_t>& axes, bool keep_dims) {
  std::vector<int64_t> kept = x.shape;  // the reduced axes at extent 1
  for (int64_t axis : axes) kept.at(static_cast<size_t>(axis)) = 1;
  std::vector<double> sums(static_cast<size_t>(element_count(kept)), 0.0);
  for (int64_t i = 0; i < x.size(); ++i)
    sums[static_cast<size_t>(broadcast_index(kept, x.shape, i))] += x.data[static_cast<size_t>(i)];
  const double count = static_cast<double>(x.size()) / static_cast<double>(sums.size());
  std::vector<int64_t> shape;
  for (size_t k = 0; k < x.shape.size(); ++k)
    if (keep_dims || std::find(axes.begin(), axes.end(), static_cast<int64_t>(k)) == axes.end())
      shape.push_back(kept[k]);
  HostTensor out(shape);
  for (size_t i = 0; i < sums.size(); ++i) out.data[i] = static_cast<float>(sums[i] / count);
  return out;
}

HostTensor slice(const HostTensor& x, int64_t axis, int64_t start, int64_t end, int64_t step) {
  const AxisSplit in = split_at(x.shape, axis);
  if (step < 1 || start < 0 || start >= end || end > in.extent)
    throw KernelError("reference slice: bounds out of range");
  std::vector<int64_t> shape = x.shape;
  const int64_t kept = graph::slice_output_extent(start, end, step);
  shape[static_cast<size_t>(axis)] = kept;
  HostTensor out(shape);
  for (int64_t o = 0; o < in.outer; ++o)
    for (int64_t k = 0; k < kept; ++k)
      for (int64_t i = 0; i < in.inner; ++i)
        out.data[static_cast<size_t>((o * kept + k) * in.inner + i)] =
            x.data[static_cast<size_t>((o * in.extent + start + k * step) * in.inner + i)];
  return out;
}

// Each output matrix reads the matrices of a and b its leading index broadcasts to: the
// leading axes are indexed as a tensor of matrices.
HostTensor batch_matmul(const HostTensor& a, const HostTensor& b, const std::vector<int64_t>& out_shape) {
  const auto matrices = [](const std::vector<int64_t>& shape) { return std::vector<int64_t>(shape.begin(), shape.end() - 2); };
  const std::vector<int64_t> lead = matrices(out_shape), lead_a = matrices(a.shape), lead_b = matrices(b.shape);
  const int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(), n = b.shape.back();
  HostTensor out(out_shape);
  int64_t count = 1;
  for (const int64_t extent : lead) count *= extent;
  for (int64_t matrix = 0; matrix < count; ++matrix) {
    const float* pa = a.data.data() + broadcast_index(lead_a, lead, matrix) * m * k;
    const float* pb = b.data.data() + broadcast_index(lead_b, lead, matrix) * k * n;
    float* po = out.data.data() + matrix * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int64_t r = 0; r < k; ++r) sum += double{pa[i * k + r]} * pb[r * n + j];
        po[i * n + j] = static_cast<float>(sum);
      }
  }
  return out;
}

HostTensor channel_shuffle(const HostTensor& x, int64_t groups) {
  const AxisSplit s = split_at(x.shape, 1);
  if (groups < 1 || s.extent % groups != 0)
    throw KernelError("reference channel shuffle: channels do not split into groups");
  const int64_t per_group = s.extent / groups;
  HostTensor out(x.shape);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t c = 0; c < s.extent; ++c) {
      const int64_t source = (c % groups) * per_group + c / groups;
      for (int64_t i = 0; i < s.inner; ++i)
        out.data[static_cast<size_t>((o * s.extent + c) * s.inner + i)] =
            x.data[static_cast<size_t>((o * s.extent + source) * s.inner + i)];
    }
  return out;
}

}  // namespace layoutopt::kernels::reference
