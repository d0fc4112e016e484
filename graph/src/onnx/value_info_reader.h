#pragma once
// Types of graph inputs from their ValueInfoProto. Real inputs may have a symbolic batch
// dimension (torch's dynamic_axes); weights a file lists as inputs must be fully static.

#include <cstdint>

#include <vector>

#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/tensor_type.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

struct DataInput {
  TensorType type;
  std::vector<BoundDimension> bound;  ///< the symbolic dimension bound to `batch`, if any
};

/// Type of an input read as data: FLOAT, static except for a symbolic leading dimension,
/// which becomes `batch`.
[[nodiscard]] DataInput read_data_input(const pb::ValueInfoProto& input, int64_t batch);

/// Shape of an input that stands for a weight (files exported without weights).
[[nodiscard]] Shape weight_input_shape(const pb::ValueInfoProto& input);

}  // namespace layoutopt::graph::onnx
