#pragma once
// Contents of constant tensors (initializers and Constant attributes) as the element type a
// consumer needs. Stored data is checked against the declared shape first, so a corrupt or
// truncated file yields a GraphError naming the tensor rather than an out-of-bounds read.

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/graph/tensor_type.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

/// Declared dimensions; throws for negative ones.
[[nodiscard]] Shape tensor_shape(const pb::TensorProto& tensor);

/// Values of a FLOAT, DOUBLE, INT32 or INT64 tensor converted to float (as Cast would).
[[nodiscard]] std::vector<float> read_floats(const pb::TensorProto& tensor);

/// Values of a FLOAT, DOUBLE, INT32 or INT64 tensor converted to double (exact).
[[nodiscard]] std::vector<double> read_doubles(const pb::TensorProto& tensor);

/// Values of a FLOAT, DOUBLE, INT32 or INT64 tensor converted to int64 (truncating, as Cast would).
[[nodiscard]] std::vector<int64_t> read_ints(const pb::TensorProto& tensor);

/// True when `value` truncated toward zero is an int64 (false for NaN and infinities).
[[nodiscard]] bool truncates_to_int64(double value);

/// `value` truncated toward zero, as Cast and the integer reads take it. Throws GraphError
/// naming `what` when it is NaN or outside int64's range, where a C++ cast is undefined.
[[nodiscard]] int64_t truncate_to_int64(double value, const std::string& what);

/// Row-major [rows, cols] values rearranged as [cols, rows].
[[nodiscard]] std::vector<float> transposed(const std::vector<float>& values, int64_t rows, int64_t cols);

}  // namespace layoutopt::graph::onnx
