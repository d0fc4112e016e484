#pragma once
// The static type of a tensor: element type and logical shape.
// Logical shapes are always in canonical order (NCHW for activations, OIHW for conv
// weights, NC for 2-D tensors); physical layouts are a separate property (see Value).

#include <cstdint>
#include <string>
#include <vector>

namespace layoutopt::graph {

enum class DType { f32, i64 };

using Shape = std::vector<int64_t>;

struct TensorType {
  Shape shape;
  DType dtype = DType::f32;
  bool operator==(const TensorType&) const = default;
};

/// Product of the extents; throws GraphError when it does not fit in int64_t.
[[nodiscard]] int64_t element_count(const Shape& shape);
/// "[1, 64, 56, 56]"
[[nodiscard]] std::string to_string(const Shape& shape);
[[nodiscard]] std::string to_string(DType dtype);
/// Parses "f32"/"i64"; throws GraphError otherwise.
[[nodiscard]] DType parse_dtype(const std::string& text);

}  // namespace layoutopt::graph
