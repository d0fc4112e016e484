#pragma once
// A tensor whose contents are known at import time, decoded so the importer can evaluate
// the nodes that compute on it (shape arithmetic, Cast, arithmetic on initializers).
// Integer and boolean elements keep exact int64 values (Slice writes INT64_MAX for "to the
// end"); floating elements are held as double and rounded to their element type after each
// operation, as a run in that type would.

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/graph/tensor_type.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

using ElementType = pb::TensorProto::DataType;

struct ConstantValue {
  ElementType type = pb::TensorProto::INT64;
  Shape dims;
  std::vector<int64_t> ints;   ///< integer and boolean types
  std::vector<double> reals;   ///< floating types

  [[nodiscard]] static ConstantValue of_ints(Shape dims, std::vector<int64_t> values,
                                             ElementType type = pb::TensorProto::INT64);
  /// Values are rounded to `type` (FLOAT rounds to float).
  [[nodiscard]] static ConstantValue of_reals(Shape dims, std::vector<double> values,
                                              ElementType type = pb::TensorProto::FLOAT);

  [[nodiscard]] bool floating() const;
  [[nodiscard]] size_t size() const;
  /// Element `i` as a double / as an integer (truncating), whatever the stored type.
  [[nodiscard]] double real(size_t i) const;
  [[nodiscard]] int64_t integer(size_t i) const;
  /// Every element as integers (truncating floats).
  [[nodiscard]] std::vector<int64_t> as_ints() const;
};

/// True for the element types the evaluator handles: FLOAT, DOUBLE, FLOAT16 (read only),
/// the signed and unsigned integers and BOOL.
[[nodiscard]] bool is_floating(ElementType type);

/// Decodes an initializer or Constant value; throws GraphError naming the tensor for
/// unsupported element types or data that does not fit its shape.
[[nodiscard]] ConstantValue decode(const pb::TensorProto& tensor);
/// The tensor holding `value`, named `name` (FLOAT16 is written as FLOAT).
[[nodiscard]] pb::TensorProto encode(const ConstantValue& value, const std::string& name);

}  // namespace layoutopt::graph::onnx
