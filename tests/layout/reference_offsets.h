#pragma once
// Closed-form memory offsets of the layouts under test, written out by hand so that the
// transform tests do not check the library against its own index arithmetic.

#include <cstdint>
#include <functional>
#include <vector>

namespace layoutopt::layout::testing {

/// Offset of a logical coordinate (canonical order) in some layout.
using OffsetFn = std::function<int64_t(const std::vector<int64_t>&)>;

/// NCHW[b]c; b = 1 is plain NCHW.
inline OffsetFn nchwc_offset(const std::vector<int64_t>& shape, int64_t b) {
  return [=](const std::vector<int64_t>& x) {
    const int64_t C = shape[1], H = shape[2], W = shape[3];
    return (((x[0] * (C / b) + x[1] / b) * H + x[2]) * W + x[3]) * b + x[1] % b;
  };
}

/// NC[b]c for logical N x C (a dense layer's activations); b = 1 is plain NC.
inline OffsetFn ncc_offset(const std::vector<int64_t>& shape, int64_t b) {
  return [=](const std::vector<int64_t>& x) { return (x[0] * (shape[1] / b) + x[1] / b) * b + x[1] % b; };
}

inline OffsetFn nhwc_offset(const std::vector<int64_t>& shape) {
  return [=](const std::vector<int64_t>& x) {
    const int64_t C = shape[1], H = shape[2], W = shape[3];
    return ((x[0] * H + x[2]) * W + x[3]) * C + x[1];
  };
}

/// OIHW[ib]i[ob]o for logical O x I x KH x KW.
inline OffsetFn oihwio_offset(const std::vector<int64_t>& shape, int64_t ib, int64_t ob) {
  return [=](const std::vector<int64_t>& x) {
    const int64_t I = shape[1], KH = shape[2], KW = shape[3];
    return ((((x[0] / ob) * (I / ib) + x[1] / ib) * KH + x[2]) * KW + x[3]) * ib * ob + (x[1] % ib) * ob + x[0] % ob;
  };
}

/// Calls fn with every coordinate of `shape`, last axis fastest.
inline void for_each_coordinate(const std::vector<int64_t>& shape,
                                const std::function<void(const std::vector<int64_t>&)>& fn) {
  int64_t total = 1;
  for (const int64_t extent : shape) total *= extent;
  std::vector<int64_t> x(shape.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    fn(x);
    for (size_t a = shape.size(); a-- > 0;) {
      if (++x[a] < shape[a]) break;
      x[a] = 0;
    }
  }
}

/// A distinct, exactly representable value per coordinate (its row-major canonical index).
inline float tag_of(const std::vector<int64_t>& shape, const std::vector<int64_t>& x) {
  int64_t index = 0;
  for (size_t a = 0; a < shape.size(); ++a) index = index * shape[a] + x[a];
  return static_cast<float>(index);
}

/// A buffer in the layout `offset` describes, holding tag_of(x) at each coordinate x.
inline std::vector<float> tagged_tensor(const std::vector<int64_t>& shape, const OffsetFn& offset) {
  int64_t total = 1;
  for (const int64_t extent : shape) total *= extent;
  std::vector<float> data(static_cast<size_t>(total), -1.0f);
  for_each_coordinate(shape, [&](const std::vector<int64_t>& x) { data[offset(x)] = tag_of(shape, x); });
  return data;
}

/// Number of coordinates whose value in `data` (laid out as `offset`) is not tag_of(x).
inline int64_t count_misplaced(const std::vector<int64_t>& shape, const OffsetFn& offset,
                               const std::vector<float>& data) {
  int64_t wrong = 0;
  for_each_coordinate(shape, [&](const std::vector<int64_t>& x) {
    if (data[static_cast<size_t>(offset(x))] != tag_of(shape, x)) ++wrong;
  });
  return wrong;
}

}  // namespace layoutopt::layout::testing
