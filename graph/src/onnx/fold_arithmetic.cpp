// Fold rules for arithmetic on known tensors, with numpy broadcasting: the binary operators
// (Add, Sub, Mul, Div, Pow, Mod, Max, Min, comparisons), the unary ones shape arithmetic uses
// (Neg, Abs, Ceil, Floor, Sqrt, Reciprocal, Not), Where and ReduceProd.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

#include "constant_folding.h"
#include "index_walk.h"
#include "layoutopt/graph/op_type_inference.h"
#include "tensor_reader.h"

namespace layoutopt::graph::onnx {

namespace {

using Values = std::vector<ConstantValue>;
using RealFn = std::function<double(double, double)>;
/// Integer rules answer nullopt where the exact result is not an int64 (overflow): a
/// damaged or hostile file must get an error, not undefined behaviour.
using IntFn = std::function<std::optional<int64_t>(int64_t, int64_t)>;
using UnaryIntFn = std::function<std::optional<int64_t>(int64_t)>;

std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}
std::optional<int64_t> checked_sub(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}
std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}

/// A double truncated toward zero, when that is an int64.
std::optional<int64_t> exact_int(double v) {
  return truncates_to_int64(v) ? std::optional(static_cast<int64_t>(v)) : std::nullopt;
}

std::optional<int64_t> negate(int64_t v) { return checked_sub(0, v); }
std::optional<int64_t> absolute(int64_t v) { return v < 0 ? negate(v) : v; }

/// The broadcast shape of a and b, or a failure naming both.
Shape broadcast_dims(const FoldContext& c, const Shape& a, const Shape& b) {
  Broadcast both = broadcast_shapes(a, b);
  if (both.clash) c.fail("shapes " + to_string(a) + " and " + to_string(b) + " do not broadcast");
  return std::move(both.shape);
}

/// Flat index into `dims` (right-aligned against `out`) of the element broadcast to `at`.
int64_t broadcast_index(const Shape& dims, const Shape& out, const std::vector<int64_t>& at) {
  int64_t flat = 0;
  const size_t offset = out.size() - dims.size();
  for (size_t d = 0; d < dims.size(); ++d) flat = flat * dims[d] + (dims[d] == 1 ? 0 : at[d + offset]);
  return flat;
}

/// Applies `op` elementwise over the broadcast of a and b; integer inputs stay integers
/// unless `boolean` results are asked for.
template <class Op>
ConstantValue broadcast(const FoldContext& c, const ConstantValue& a, const ConstantValue& b, ElementType type, Op op) {
  const Shape out = broadcast_dims(c, a.dims, b.dims);
  c.check_output_size(out);
  ConstantValue result{.type = type, .dims = out, .ints = {}, .reals = {}};
  for_each_index(out, [&](const std::vector<int64_t>& at) {
    op(result, static_cast<size_t>(broadcast_index(a.dims, out, at)), static_cast<size_t>(broadcast_index(b.dims, out, at)));
  });
  if (result.floating()) result = ConstantValue::of_reals(result.dims, std::move(result.reals), type);
  return result;
}

int64_t exact_or_fail(const FoldContext& c, std::optional<int64_t> value) {
  if (!value) c.fail("integer overflow: the result does not fit 64 bits");
  return *value;
}

ConstantValue arithmetic(const FoldContext& c, const ConstantValue& a, const ConstantValue& b, const RealFn& real,
                         const IntFn& integer) {
  if (a.floating() != b.floating()) c.fail("operands have different element types");
  return broadcast(c, a, b, a.type, [&](ConstantValue& out, size_t i, size_t j) {
    if (a.floating()) out.reals.push_back(real(a.reals[i], b.reals[j]));
    else out.ints.push_back(exact_or_fail(c, integer(a.ints[i], b.ints[j])));
  });
}

/// A binary rule; Max, Min and Sum take any number of inputs, folded left to right.
FoldRule binary(RealFn real, IntFn integer) {
  return {[real, integer](const FoldContext& c) -> Values {
    ConstantValue result = c.value(0);
    for (size_t i = 1; i < c.input_count(); ++i) result = arithmetic(c, result, c.value(i), real, integer);
    return {result};
  }};
}

FoldRule comparison(std::function<bool(double, double)> compare) {
  return {[compare](const FoldContext& c) -> Values {
    const ConstantValue &a = c.value(0), &b = c.value(1);
    return {broadcast(c, a, b, pb::TensorProto::BOOL, [&](ConstantValue& out, size_t i, size_t j) {
      out.ints.push_back(compare(a.real(i), b.real(j)));
    })};
  }};
}

FoldRule unary(std::function<double(double)> real, UnaryIntFn integer) {
  return {[real, integer](const FoldContext& c) -> Values {
    ConstantValue x = c.value(0);
    if (x.floating()) {
      for (double& v : x.reals) v = real(v);
      return {ConstantValue::of_reals(x.dims, std::move(x.reals), x.type)};
    }
    for (int64_t& v : x.ints) v = exact_or_fail(c, integer(v));
    return {x};
  }};
}

std::optional<int64_t> integer_divide(const FoldContext& c, int64_t a, int64_t b) {
  if (b == 0) c.fail("integer division by zero");
  if (b == -1) return negate(a);  // INT64_MIN / -1 overflows
  return a / b;  // truncation, as ONNX Runtime's integer Div
}

Values fold_div(const FoldContext& c) {
  return {arithmetic(c, c.value(0), c.value(1), std::divides<double>(),
                     [&](int64_t a, int64_t b) { return integer_divide(c, a, b); })};
}

Values fold_mod(const FoldContext& c) {
  const bool fmod = c.attributes().get_int("fmod", 0) != 0;
  return {arithmetic(
      c, c.value(0), c.value(1), [](double a, double b) { return std::fmod(a, b); },
      [&](int64_t a, int64_t b) -> std::optional<int64_t> {
        if (b == 0) c.fail("integer modulo by zero");
        const int64_t r = b == -1 ? 0 : a % b;  // INT64_MIN % -1 overflows
        return !fmod && r != 0 && ((r < 0) != (b < 0)) ? r + b : r;  // Python's sign rule unless fmod
      })};
}

Values fold_where(const FoldContext& c) {
  const ConstantValue &condition = c.value(0), &x = c.value(1), &y = c.value(2);
  if (x.floating() != y.floating()) c.fail("X and Y have different element types");
  const Shape out = broadcast_dims(c, broadcast_dims(c, condition.dims, x.dims), y.dims);
  c.check_output_size(out);
  ConstantValue result{.type = x.type, .dims = out, .ints = {}, .reals = {}};
  for_each_index(out, [&](const std::vector<int64_t>& at) {
    const bool take_x = condition.ints.at(static_cast<size_t>(broadcast_index(condition.dims, out, at))) != 0;
    const ConstantValue& from = take_x ? x : y;
    const auto i = static_cast<size_t>(broadcast_index(from.dims, out, at));
    if (from.floating()) result.reals.push_back(from.reals[i]);
    else result.ints.push_back(from.ints[i]);
  });
  return {result};
}

/// ReduceProd of a 1-D shape vector (numel computations); other ranks are not shape arithmetic.
Values fold_reduce_prod(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  if (x.dims.size() != 1 || c.attributes().get_int("keepdims", 1) != 0 || c.has_input(1))
    c.fail("only the product of all elements of a 1-D tensor with keepdims=0 is evaluated at import");
  if (x.floating()) {
    double product = 1;
    for (double v : x.reals) product *= v;
    return {ConstantValue::of_reals({}, {product}, x.type)};
  }
  int64_t product = 1;
  for (int64_t v : x.ints) product = exact_or_fail(c, checked_mul(product, v));
  return {ConstantValue::of_ints({}, {product}, x.type)};
}

std::optional<int64_t> identity_int(int64_t v) { return v; }

}  // namespace

const std::vector<std::pair<std::string_view, FoldRule>>& arithmetic_fold_rules() {
  static const std::vector<std::pair<std::string_view, FoldRule>> rules = {
      {"Add", binary(std::plus<double>(), checked_add)},
      {"Sum", binary(std::plus<double>(), checked_add)},
      {"Sub", binary(std::minus<double>(), checked_sub)},
      {"Mul", binary(std::multiplies<double>(), checked_mul)},
      {"Div", {fold_div}},
      {"Mod", {fold_mod}},
      {"Pow", binary([](double a, double b) { return std::pow(a, b); },
                     [](int64_t a, int64_t b) { return exact_int(std::pow(a, b)); })},
      {"Max", binary([](double a, double b) { return std::max(a, b); }, [](int64_t a, int64_t b) -> std::optional<int64_t> { return std::max(a, b); })},
      {"Min", binary([](double a, double b) { return std::min(a, b); }, [](int64_t a, int64_t b) -> std::optional<int64_t> { return std::min(a, b); })},
      {"Equal", comparison(std::equal_to<double>())},
      {"Less", comparison(std::less<double>())},
      {"Greater", comparison(std::greater<double>())},
      {"LessOrEqual", comparison(std::less_equal<double>())},
      {"GreaterOrEqual", comparison(std::greater_equal<double>())},
      {"Neg", unary(std::negate<double>(), negate)},
      {"Abs", unary([](double v) { return std::abs(v); }, absolute)},
      {"Ceil", unary([](double v) { return std::ceil(v); }, identity_int)},
      {"Floor", unary([](double v) { return std::floor(v); }, identity_int)},
      {"Sqrt", unary([](double v) { return std::sqrt(v); }, [](int64_t v) { return exact_int(std::trunc(std::sqrt(static_cast<double>(v)))); })},
      {"Reciprocal", unary([](double v) { return 1.0 / v; }, identity_int)},
      {"Not", unary([](double v) { return v == 0.0 ? 1.0 : 0.0; }, [](int64_t v) -> std::optional<int64_t> { return v == 0; })},
      {"Where", {fold_where}},
      {"ReduceProd", {fold_reduce_prod}},
  };
  return rules;
}

}  // namespace layoutopt::graph::onnx
