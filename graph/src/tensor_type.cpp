#include "layoutopt/graph/tensor_type.h"

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

int64_t element_count(const Shape& shape) {
  // Shapes come from files: a product past 64 bits is an error, not signed overflow.
  int64_t count = 1;
  for (int64_t extent : shape)
    if (__builtin_mul_overflow(count, extent, &count))
      throw GraphError("shape " + to_string(shape) + " has more elements than 64 bits can count");
  return count;
}

std::string to_string(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string to_string(DType dtype) { return dtype == DType::f32 ? "f32" : "i64"; }

DType parse_dtype(const std::string& text) {
  if (text == "f32") return DType::f32;
  if (text == "i64") return DType::i64;
  throw GraphError("unknown dtype '" + text + "' (expected f32 or i64)");
}

}  // namespace layoutopt::graph
