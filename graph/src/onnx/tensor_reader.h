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

/// Bytes the declared shape takes stored packed, as raw_data and external data files hold
/// it: dims x element size. Throws GraphError naming the tensor for a negative dimension, a
/// type without a fixed element size (STRING, UNDEFINED, unknown) or a size past 2^63.
[[nodiscard]] uint64_t tensor_byte_size(const pb::TensorProto& tensor);

/// Throws GraphError naming the tensor when its data is still in an external file: only an
/// import from a path reads those (external_data.h), an import from bytes has no folder.
void require_stored_inline(const pb::TensorProto& tensor);

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
