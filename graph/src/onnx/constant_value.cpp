#include "constant_value.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "layoutopt/graph/error.h"
#include "tensor_reader.h"

namespace layoutopt::graph::onnx {

namespace {

/// `value` as the element type would hold it: floats round to single precision.
double rounded(double value, ElementType type) {
  return type == pb::TensorProto::FLOAT || type == pb::TensorProto::FLOAT16 ? static_cast<double>(static_cast<float>(value))
                                                                            : value;
}

/// Half-precision bits to a double (IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits).
double half_to_double(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

/// FLOAT16 elements: raw_data as 2-byte values, or int32_data holding one value each.
std::vector<double> read_halves(const pb::TensorProto& tensor, size_t count) {
  std::vector<uint16_t> bits(count);
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != count * 2)
      throw GraphError("tensor '" + tensor.name() + "': raw_data holds " + std::to_string(tensor.raw_data().size()) +
                       " bytes, shape needs " + std::to_string(count) + " FLOAT16 elements");
    if (count > 0) std::memcpy(bits.data(), tensor.raw_data().data(), count * 2);  // data() may be null when empty
  } else {
    if (static_cast<size_t>(tensor.int32_data_size()) != count)
      throw GraphError("tensor '" + tensor.name() + "': holds " + std::to_string(tensor.int32_data_size()) +
                       " values, shape needs " + std::to_string(count));
    for (size_t i = 0; i < count; ++i) bits[i] = static_cast<uint16_t>(tensor.int32_data(static_cast<int>(i)));
  }
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = half_to_double(bits[i]);
  return values;
}

/// BOOL, INT8, UINT8, INT16, UINT16, INT32 and UINT32 elements: raw_data holds them packed at
/// their own width; int32_data holds one per entry.
template <class Stored>
std::vector<int64_t> read_narrow(const pb::TensorProto& tensor, size_t count) {
  if (!tensor.has_raw_data()) {
    if (static_cast<size_t>(tensor.int32_data_size()) != count)
      throw GraphError("tensor '" + tensor.name() + "': holds " + std::to_string(tensor.int32_data_size()) +
                       " values, shape needs " + std::to_string(count));
    return {tensor.int32_data().begin(), tensor.int32_data().end()};
  }
  if (tensor.raw_data().size() != count * sizeof(Stored))
    throw GraphError("tensor '" + tensor.name() + "': raw_data holds " + std::to_string(tensor.raw_data().size()) +
                     " bytes, shape needs " + std::to_string(count) + " elements of " + std::to_string(sizeof(Stored)) +
                     " bytes");
  std::vector<Stored> stored(count);
  if (count > 0) std::memcpy(stored.data(), tensor.raw_data().data(), count * sizeof(Stored));  // data() may be null when empty
  return {stored.begin(), stored.end()};
}

std::vector<int64_t> read_integers(const pb::TensorProto& tensor, size_t count) {
  switch (tensor.data_type()) {
    case pb::TensorProto::BOOL:
    case pb::TensorProto::UINT8: return read_narrow<uint8_t>(tensor, count);
    case pb::TensorProto::INT8: return read_narrow<int8_t>(tensor, count);
    case pb::TensorProto::INT16: return read_narrow<int16_t>(tensor, count);
    case pb::TensorProto::UINT16: return read_narrow<uint16_t>(tensor, count);
    default: return read_ints(tensor);  // INT32, INT64, checked there
  }
}

}  // namespace

bool is_floating(ElementType type) {
  return type == pb::TensorProto::FLOAT || type == pb::TensorProto::DOUBLE || type == pb::TensorProto::FLOAT16;
}

ConstantValue ConstantValue::of_ints(Shape dims, std::vector<int64_t> values, ElementType type) {
  return {.type = type, .dims = std::move(dims), .ints = std::move(values), .reals = {}};
}

ConstantValue ConstantValue::of_reals(Shape dims, std::vector<double> values, ElementType type) {
  for (double& value : values) value = rounded(value, type);
  return {.type = type, .dims = std::move(dims), .ints = {}, .reals = std::move(values)};
}

bool ConstantValue::floating() const { return is_floating(type); }

size_t ConstantValue::size() const { return floating() ? reals.size() : ints.size(); }

double ConstantValue::real(size_t i) const { return floating() ? reals.at(i) : static_cast<double>(ints.at(i)); }

int64_t ConstantValue::integer(size_t i) const {
  return floating() ? truncate_to_int64(reals.at(i), "a constant read as integers") : ints.at(i);
}

std::vector<int64_t> ConstantValue::as_ints() const {
  if (!floating()) return ints;
  std::vector<int64_t> values(reals.size());
  for (size_t i = 0; i < reals.size(); ++i) values[i] = truncate_to_int64(reals[i], "a constant read as integers");
  return values;
}

ConstantValue decode(const pb::TensorProto& tensor) {
  require_stored_inline(tensor);  // the narrow and half readers would call it empty instead
  const Shape dims = tensor_shape(tensor);
  const auto count = static_cast<size_t>(element_count(dims));
  const auto type = static_cast<ElementType>(tensor.data_type());
  switch (type) {
    case pb::TensorProto::FLOAT:
    case pb::TensorProto::DOUBLE: return ConstantValue::of_reals(dims, read_doubles(tensor), type);
    case pb::TensorProto::FLOAT16: return ConstantValue::of_reals(dims, read_halves(tensor, count), type);
    case pb::TensorProto::BOOL:
    case pb::TensorProto::INT8:
    case pb::TensorProto::UINT8:
    case pb::TensorProto::INT16:
    case pb::TensorProto::UINT16:
    case pb::TensorProto::INT32:
    case pb::TensorProto::INT64: return ConstantValue::of_ints(dims, read_integers(tensor, count), type);
    default:
      throw GraphError("tensor '" + tensor.name() + "': element type " + pb::TensorProto::DataType_Name(type) +
                       " cannot be evaluated at import");
  }
}

pb::TensorProto encode(const ConstantValue& value, const std::string& name) {
  pb::TensorProto tensor;
  tensor.set_name(name);
  for (int64_t dim : value.dims) tensor.add_dims(dim);
  if (value.floating()) {
    tensor.set_data_type(value.type == pb::TensorProto::DOUBLE ? pb::TensorProto::DOUBLE : pb::TensorProto::FLOAT);
    for (double real : value.reals)
      value.type == pb::TensorProto::DOUBLE ? tensor.add_double_data(real) : tensor.add_float_data(static_cast<float>(real));
  } else {
    tensor.set_data_type(pb::TensorProto::INT64);
    for (int64_t integer : value.ints) tensor.add_int64_data(integer);
  }
  return tensor;
}

}  // namespace layoutopt::graph::onnx
