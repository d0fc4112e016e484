#include "value_info_reader.h"

#include <optional>
#include <string>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

namespace {

[[noreturn]] void fail(const pb::ValueInfoProto& input, const std::string& what) {
  throw GraphError("graph input '" + input.name() + "': " + what);
}

const pb::TensorShapeProto& float_tensor_shape(const pb::ValueInfoProto& input) {
  if (!input.type().has_tensor_type()) fail(input, "is not a tensor");
  const auto& tensor = input.type().tensor_type();
  if (tensor.elem_type() != pb::TensorProto::FLOAT)
    fail(input, "element type " + pb::TensorProto::DataType_Name(tensor.elem_type()) + " is not supported (expected FLOAT)");
  if (!tensor.has_shape()) fail(input, "has no shape (unknown rank)");
  return tensor.shape();
}

/// The static shape; a symbolic or missing leading dimension becomes `symbolic_leading` when
/// given (and is recorded in `bound`), any other one is an error naming the dimension.
Shape read_shape(const pb::ValueInfoProto& input, std::optional<int64_t> symbolic_leading,
                 std::vector<BoundDimension>* bound = nullptr) {
  Shape shape;
  const pb::TensorShapeProto& proto = float_tensor_shape(input);
  for (int d = 0; d < proto.dim_size(); ++d) {
    const auto& dim = proto.dim(d);
    if (dim.has_dim_value()) {
      // A zero extent is an empty tensor, not an unknown one: running it as 1 would be wrong.
      if (dim.dim_value() < 1)
        fail(input, "dimension " + std::to_string(d) + " is " + std::to_string(dim.dim_value()) +
                        "; only tensors with positive extents can be planned");
      shape.push_back(dim.dim_value());
    } else if (d == 0 && symbolic_leading) {
      shape.push_back(*symbolic_leading);
      if (bound) bound->push_back({input.name(), 0, dim.dim_param(), *symbolic_leading});
    } else {
      const std::string label = dim.has_dim_param() ? "'" + dim.dim_param() + "'" : std::to_string(dim.dim_value());
      fail(input, "dimension " + std::to_string(d) + " is " + label +
                      "; only the leading (batch) dimension of a data input may be symbolic");
    }
  }
  return shape;
}

}  // namespace

DataInput read_data_input(const pb::ValueInfoProto& input, int64_t batch) {
  if (batch < 1) fail(input, "batch size must be positive, found " + std::to_string(batch));
  DataInput data;
  data.type = {read_shape(input, batch, &data.bound), DType::f32};
  return data;
}

Shape weight_input_shape(const pb::ValueInfoProto& input) { return read_shape(input, std::nullopt); }

}  // namespace layoutopt::graph::onnx
