#include "tensor_reader.h"

#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

namespace {

// raw_data is little-endian by the ONNX spec; we copy it as is.
static_assert(std::endian::native == std::endian::little, "raw_data decoding assumes a little-endian host");

[[noreturn]] void fail(const pb::TensorProto& tensor, const std::string& what) {
  throw GraphError("tensor '" + tensor.name() + "': " + what);
}

/// Element count of the declared shape, checked for overflow: the shape comes from an
/// untrusted file and decides how much we read.
size_t declared_count(const pb::TensorProto& tensor) {
  int64_t count = 1;
  for (int64_t dim : tensor_shape(tensor))
    if (__builtin_mul_overflow(count, dim, &count)) fail(tensor, "shape " + to_string(tensor_shape(tensor)) + " is too large");
  return static_cast<size_t>(count);
}

/// One stored element as `Out`; a floating value read as an integer must fit (truncated).
template <class Out, class Stored>
Out element_as(const pb::TensorProto& tensor, Stored value) {
  if constexpr (std::is_integral_v<Out> && std::is_floating_point_v<Stored>)
    return truncate_to_int64(static_cast<double>(value), "tensor '" + tensor.name() + "'");
  else
    return static_cast<Out>(value);
}

template <class Out, class Stored, class Range>
std::vector<Out> elements_as(const pb::TensorProto& tensor, const Range& stored) {
  std::vector<Out> values;
  values.reserve(static_cast<size_t>(stored.size()));
  for (Stored value : stored) values.push_back(element_as<Out, Stored>(tensor, value));
  return values;
}

/// The stored elements of type `Stored` (from raw_data or the typed field), converted to `Out`.
template <class Out, class Stored, class Field>
std::vector<Out> convert(const pb::TensorProto& tensor, const Field& typed_field) {
  // Sizes are compared before allocating, so a corrupt shape cannot request huge buffers.
  const size_t count = declared_count(tensor);
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() / sizeof(Stored) != count || tensor.raw_data().size() % sizeof(Stored) != 0)
      fail(tensor, "raw_data holds " + std::to_string(tensor.raw_data().size()) + " bytes, shape " +
                       to_string(tensor_shape(tensor)) + " needs " + std::to_string(count) + " elements of " +
                       std::to_string(sizeof(Stored)) + " bytes");
    std::vector<Stored> stored(count);
    // Never memcpy for an empty tensor: data() of an empty vector may be null, which
    // memcpy forbids even for zero bytes.
    if (count > 0) std::memcpy(stored.data(), tensor.raw_data().data(), count * sizeof(Stored));
    return elements_as<Out, Stored>(tensor, stored);
  }
  if (static_cast<size_t>(typed_field.size()) != count)
    fail(tensor, "holds " + std::to_string(typed_field.size()) + " values, shape " + to_string(tensor_shape(tensor)) +
                     " needs " + std::to_string(count));
  return elements_as<Out, Stored>(tensor, typed_field);
}

template <class Out>
std::vector<Out> read_as(const pb::TensorProto& tensor) {
  if (tensor.data_location() == pb::TensorProto::EXTERNAL)
    fail(tensor, "its data is in an external file, which only a model imported from its path can read");
  switch (tensor.data_type()) {
    case pb::TensorProto::FLOAT: return convert<Out, float>(tensor, tensor.float_data());
    case pb::TensorProto::DOUBLE: return convert<Out, double>(tensor, tensor.double_data());
    case pb::TensorProto::INT32: return convert<Out, int32_t>(tensor, tensor.int32_data());
    case pb::TensorProto::INT64: return convert<Out, int64_t>(tensor, tensor.int64_data());
    default:
      fail(tensor, "element type " + pb::TensorProto::DataType_Name(tensor.data_type()) +
                       " is not supported (expected FLOAT, DOUBLE, INT32 or INT64)");
  }
}

}  // namespace

Shape tensor_shape(const pb::TensorProto& tensor) {
  Shape shape(tensor.dims().begin(), tensor.dims().end());
  for (int64_t dim : shape)
    if (dim < 0) fail(tensor, "negative dimension in shape " + to_string(shape));
  return shape;
}

bool truncates_to_int64(double value) {
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  return value >= -kLimit && value < kLimit;          // false for NaN too
}

int64_t truncate_to_int64(double value, const std::string& what) {
  if (!truncates_to_int64(value)) throw GraphError(what + ": " + std::to_string(value) + " does not fit a 64-bit integer");
  return static_cast<int64_t>(value);
}

std::vector<float> read_floats(const pb::TensorProto& tensor) { return read_as<float>(tensor); }

std::vector<double> read_doubles(const pb::TensorProto& tensor) { return read_as<double>(tensor); }

std::vector<int64_t> read_ints(const pb::TensorProto& tensor) { return read_as<int64_t>(tensor); }

std::vector<float> transposed(const std::vector<float>& values, int64_t rows, int64_t cols) {
  std::vector<float> result(values.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      result[static_cast<size_t>(c * rows + r)] = values[static_cast<size_t>(r * cols + c)];
  return result;
}

}  // namespace layoutopt::graph::onnx
