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

/// Bytes of one element stored packed, or 0 for types without a fixed size (STRING,
/// UNDEFINED, values no ONNX version defines).
size_t element_bytes(int32_t data_type) {
  switch (data_type) {
    case pb::TensorProto::BOOL:
    case pb::TensorProto::INT8:
    case pb::TensorProto::UINT8: return 1;
    case pb::TensorProto::INT16:
    case pb::TensorProto::UINT16:
    case pb::TensorProto::FLOAT16:
    case pb::TensorProto::BFLOAT16: return 2;
    case pb::TensorProto::FLOAT:
    case pb::TensorProto::INT32:
    case pb::TensorProto::UINT32: return 4;
    case pb::TensorProto::DOUBLE:
    case pb::TensorProto::INT64:
    case pb::TensorProto::UINT64:
    case pb::TensorProto::COMPLEX64: return 8;
    case pb::TensorProto::COMPLEX128: return 16;
    default: return 0;
  }
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
  require_stored_inline(tensor);
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

void require_stored_inline(const pb::TensorProto& tensor) {
  if (tensor.data_location() == pb::TensorProto::EXTERNAL)
    fail(tensor, "its data is in an external file, which only a model imported from its path can read");
}

uint64_t tensor_byte_size(const pb::TensorProto& tensor) {
  const size_t element = element_bytes(tensor.data_type());
  if (element == 0) {
    const std::string& name = pb::TensorProto::DataType_Name(tensor.data_type());  // empty for unknown values
    fail(tensor, "element type " + (name.empty() ? std::to_string(tensor.data_type()) : name) + " has no fixed size in bytes");
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<int64_t>(declared_count(tensor)), static_cast<int64_t>(element), &bytes))
    fail(tensor, "shape " + to_string(tensor_shape(tensor)) + " is too large");
  return static_cast<uint64_t>(bytes);
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
