// Fold rules for the operators that produce, reshape and index small tensors: Constant,
// Identity, Cast, Shape, Size, Gather, Unsqueeze, Squeeze, Concat, Slice, Reshape, Flatten,
// Transpose, Expand, ConstantOfShape, Range and ScatterND. Each keeps the element type of
// its data.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "constant_folding.h"
#include "index_walk.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/op_type_inference.h"
#include "slice_range.h"
#include "tensor_reader.h"

namespace layoutopt::graph::onnx {

namespace {

using Values = std::vector<ConstantValue>;

/// Row-major strides of `dims`.
std::vector<int64_t> strides_of(const Shape& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

/// A value of `from`'s type and shape `dims` whose element i is from's element picks[i]:
/// every data-movement fold is one of these.
ConstantValue picked(const ConstantValue& from, Shape dims, const std::vector<int64_t>& picks) {
  ConstantValue result{.type = from.type, .dims = std::move(dims), .ints = {}, .reals = {}};
  for (int64_t pick : picks) {
    const auto i = static_cast<size_t>(pick);
    if (from.floating()) result.reals.push_back(from.reals.at(i));
    else result.ints.push_back(from.ints.at(i));
  }
  return result;
}

std::vector<int64_t> iota_picks(int64_t count) {
  std::vector<int64_t> picks(static_cast<size_t>(count));
  std::iota(picks.begin(), picks.end(), 0);
  return picks;
}

/// The same elements under new dimensions.
ConstantValue reshaped(const ConstantValue& from, Shape dims) {
  ConstantValue result = from;
  result.dims = std::move(dims);
  return result;
}

/// For each element of `out` (row-major), the flat index of the element of `in` that
/// `source` maps its multi-index to.
template <class Source>
std::vector<int64_t> map_indices(const Shape& out, Source source) {
  std::vector<int64_t> picks;
  for_each_index(out, [&](const std::vector<int64_t>& index) { picks.push_back(source(index)); });
  return picks;
}

pb::TensorProto scalar_tensor(const pb::AttributeProto::AttributeType type, const AttributeReader& attributes,
                              const std::string& name) {
  pb::TensorProto tensor;
  if (type == pb::AttributeProto::FLOAT) {
    tensor.set_data_type(pb::TensorProto::FLOAT);
    tensor.add_float_data(attributes.get_float(name, 0.0f));
  } else {
    tensor.set_data_type(pb::TensorProto::INT64);
    tensor.add_int64_data(attributes.get_int(name, 0));
  }
  return tensor;
}

/// Constant: whichever of its value attributes it has.
Values fold_constant(const FoldContext& c) {
  const AttributeReader& a = c.attributes();
  if (a.has("value")) return {decode(a.get_tensor("value"))};
  if (a.has("value_float")) return {decode(scalar_tensor(pb::AttributeProto::FLOAT, a, "value_float"))};
  if (a.has("value_int")) return {decode(scalar_tensor(pb::AttributeProto::INT, a, "value_int"))};
  if (a.has("value_floats")) {
    const std::vector<float> values = a.get_floats("value_floats");
    return {ConstantValue::of_reals({static_cast<int64_t>(values.size())}, {values.begin(), values.end()})};
  }
  if (a.has("value_ints")) {
    std::vector<int64_t> values = a.get_ints("value_ints", {});
    const auto count = static_cast<int64_t>(values.size());
    return {ConstantValue::of_ints({count}, std::move(values))};
  }
  c.fail("only numeric tensor values are supported (not sparse or string constants)");
}

Values fold_identity(const FoldContext& c) { return {c.value(0)}; }

Values fold_cast(const FoldContext& c) {
  const auto to = static_cast<ElementType>(c.attributes().get_int("to", 0));
  const ConstantValue& x = c.value(0);
  if (is_floating(to)) {
    std::vector<double> reals(x.size());
    for (size_t i = 0; i < x.size(); ++i) reals[i] = x.real(i);
    return {ConstantValue::of_reals(x.dims, std::move(reals), to)};
  }
  if (to == pb::TensorProto::BOOL) {
    std::vector<int64_t> bools(x.size());
    for (size_t i = 0; i < x.size(); ++i) bools[i] = x.real(i) != 0.0;
    return {ConstantValue::of_ints(x.dims, std::move(bools), to)};
  }
  if (to == pb::TensorProto::STRING || to == pb::TensorProto::UNDEFINED)
    c.fail("cast to " + pb::TensorProto::DataType_Name(to) + " cannot be evaluated at import");
  return {ConstantValue::of_ints(x.dims, x.as_ints(), to)};
}

/// Shape (with opset 15's start and end) and Size need only their input's dimensions.
Values fold_shape(const FoldContext& c) {
  const Shape& dims = c.dims(0);
  const auto rank = static_cast<int64_t>(dims.size());
  const auto clamp = [&](int64_t i) { return std::clamp(i < 0 ? i + rank : i, int64_t{0}, rank); };
  const int64_t start = clamp(c.attributes().get_int("start", 0));
  const int64_t end = clamp(c.attributes().get_int("end", rank));
  std::vector<int64_t> extents(dims.begin() + start, dims.begin() + std::max(start, end));
  const auto count = static_cast<int64_t>(extents.size());
  return {ConstantValue::of_ints({count}, std::move(extents))};
}

Values fold_size(const FoldContext& c) { return {ConstantValue::of_ints({}, {element_count(c.dims(0))})}; }

Values fold_gather(const FoldContext& c) {
  const ConstantValue& data = c.value(0);
  const ConstantValue& indices = c.value(1);
  const int64_t axis = c.axis(c.attributes().get_int("axis", 0), data.dims.size());
  const int64_t extent = data.dims[static_cast<size_t>(axis)];
  Shape out(data.dims.begin(), data.dims.begin() + axis);
  out.insert(out.end(), indices.dims.begin(), indices.dims.end());
  out.insert(out.end(), data.dims.begin() + axis + 1, data.dims.end());
  c.check_output_size(out);
  const std::vector<int64_t> in_strides = strides_of(data.dims);
  const auto index_rank = indices.dims.size();
  const std::vector<int64_t> index_strides = strides_of(indices.dims);
  return {picked(data, out, map_indices(out, [&](const std::vector<int64_t>& at) {
                   int64_t index_flat = 0;
                   for (size_t k = 0; k < index_rank; ++k) index_flat += at[static_cast<size_t>(axis) + k] * index_strides[k];
                   int64_t index = indices.integer(static_cast<size_t>(index_flat));
                   if (index < -extent || index >= extent)
                     c.fail("index " + std::to_string(index) + " is out of range for extent " + std::to_string(extent));
                   if (index < 0) index += extent;
                   int64_t flat = 0;
                   for (size_t d = 0; d < data.dims.size(); ++d) {
                     const auto ad = static_cast<int64_t>(d);
                     const int64_t coordinate =
                         ad < axis ? at[d] : ad == axis ? index : at[d + index_rank - 1];
                     flat += coordinate * in_strides[d];
                   }
                   return flat;
                 }))};
}

Values fold_unsqueeze(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  std::vector<int64_t> axes = c.ints(1);
  const size_t rank = x.dims.size() + axes.size();
  for (int64_t& axis : axes) axis = c.axis(axis, rank);
  std::sort(axes.begin(), axes.end());
  Shape out;
  size_t next = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d))) out.push_back(1);
    else out.push_back(x.dims.at(next++));
  }
  return {reshaped(x, out)};
}

Values fold_squeeze(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  std::vector<int64_t> axes = c.ints(1);
  for (int64_t& axis : axes) axis = c.axis(axis, x.dims.size());
  Shape out;
  for (size_t d = 0; d < x.dims.size(); ++d) {
    const bool listed = std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end();
    if (listed && x.dims[d] != 1) c.fail("cannot squeeze axis " + std::to_string(d) + " of extent " + std::to_string(x.dims[d]));
    if (!(listed || (axes.empty() && x.dims[d] == 1))) out.push_back(x.dims[d]);
  }
  return {reshaped(x, out)};
}

Values fold_concat(const FoldContext& c) {
  const ConstantValue& first = c.value(0);
  const int64_t axis = c.axis(c.attributes().get_int("axis", 0), first.dims.size());
  ConstantValue result{.type = first.type, .dims = first.dims, .ints = {}, .reals = {}};
  int64_t& joined = result.dims[static_cast<size_t>(axis)];
  joined = 0;
  for (size_t i = 0; i < c.input_count(); ++i) {
    Shape part = c.value(i).dims;
    if (part.size() != first.dims.size()) c.fail("inputs " + to_string(first.dims) + " and " + to_string(part) + " differ in rank");
    const int64_t extent = part[static_cast<size_t>(axis)];
    part[static_cast<size_t>(axis)] = first.dims[static_cast<size_t>(axis)];
    if (part != first.dims) c.fail("inputs " + to_string(first.dims) + " and " + to_string(c.value(i).dims) + " differ off the axis");
    if (__builtin_add_overflow(joined, extent, &joined)) c.fail("the joined extent does not fit 64 bits");
  }
  c.check_output_size(result.dims);
  const int64_t outer = std::accumulate(first.dims.begin(), first.dims.begin() + axis, int64_t{1}, std::multiplies<>());
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < c.input_count(); ++i) {
      const ConstantValue& part = c.value(i);
      if (part.floating() != first.floating()) c.fail("inputs have different element types");
      const int64_t chunk = element_count(part.dims) / std::max<int64_t>(outer, 1);
      for (int64_t k = 0; k < chunk; ++k) {
        const auto at = static_cast<size_t>(o * chunk + k);
        if (part.floating()) result.reals.push_back(part.reals[at]);
        else result.ints.push_back(part.ints[at]);
      }
    }
  return {result};
}

Values fold_slice(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  const std::vector<int64_t> starts = c.ints(1), ends = c.ints(2);
  std::vector<int64_t> axes = c.ints(3, iota_picks(static_cast<int64_t>(starts.size())));
  const std::vector<int64_t> steps = c.ints(4, std::vector<int64_t>(starts.size(), 1));
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    c.fail("starts, ends, axes and steps differ in length");
  Shape out = x.dims;
  std::vector<int64_t> first(x.dims.size(), 0), step(x.dims.size(), 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    const auto d = static_cast<size_t>(c.axis(axes[i], x.dims.size()));
    const SliceRange range = slice_range(x.dims[d], starts[i], ends[i], steps[i]);
    if (range.step == 0) c.fail("step 0");
    first[d] = range.start;
    step[d] = range.step;
    out[d] = range.count;
  }
  const std::vector<int64_t> strides = strides_of(x.dims);
  return {picked(x, out, map_indices(out, [&](const std::vector<int64_t>& at) {
                   int64_t flat = 0;
                   for (size_t d = 0; d < at.size(); ++d) flat += (first[d] + at[d] * step[d]) * strides[d];
                   return flat;
                 }))};
}

/// Reshape's target resolved as shape inference resolves it (0 copies unless allowzero).
Shape reshape_target(const FoldContext& c, const Shape& in, const std::vector<int64_t>& target) {
  const bool zero_copies = c.attributes().get_int("allowzero", 0) == 0;
  try {
    return resolve_reshape_target(in, target, zero_copies);
  } catch (const GraphError& problem) {
    c.fail(problem.what());
  }
}

Values fold_reshape(const FoldContext& c) { return {reshaped(c.value(0), reshape_target(c, c.value(0).dims, c.ints(1)))}; }

Values fold_flatten(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  const int64_t axis = c.axis(c.attributes().get_int("axis", 1), x.dims.size(), true);
  const int64_t outer = std::accumulate(x.dims.begin(), x.dims.begin() + axis, int64_t{1}, std::multiplies<>());
  return {reshaped(x, {outer, outer == 0 ? 0 : element_count(x.dims) / outer})};
}

Values fold_transpose(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  std::vector<int64_t> perm = c.attributes().get_ints("perm", {});
  if (perm.empty())
    for (size_t d = x.dims.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
  if (perm.size() != x.dims.size()) c.fail("perm " + to_string(perm) + " does not fit rank " + std::to_string(x.dims.size()));
  Shape out;
  for (int64_t p : perm) out.push_back(x.dims.at(static_cast<size_t>(c.axis(p, x.dims.size()))));
  const std::vector<int64_t> strides = strides_of(x.dims);
  return {picked(x, out, map_indices(out, [&](const std::vector<int64_t>& at) {
                   int64_t flat = 0;
                   for (size_t d = 0; d < at.size(); ++d) flat += at[d] * strides[static_cast<size_t>(perm[d])];
                   return flat;
                 }))};
}

Values fold_expand(const FoldContext& c) {
  const ConstantValue& x = c.value(0);
  const std::vector<int64_t> target = c.ints(1);
  const size_t rank = std::max(x.dims.size(), target.size());
  Shape out(rank), padded(rank, 1);
  std::copy(x.dims.begin(), x.dims.end(), padded.begin() + static_cast<std::ptrdiff_t>(rank - x.dims.size()));
  for (size_t d = 0; d < rank; ++d) {
    const int64_t want = d < rank - target.size() ? 1 : target[d - (rank - target.size())];
    if (padded[d] != want && padded[d] != 1 && want != 1) c.fail("cannot expand " + to_string(x.dims) + " to " + to_string(target));
    out[d] = std::max(padded[d], want);
  }
  c.check_output_size(out);
  const std::vector<int64_t> strides = strides_of(padded);
  return {picked(x, out, map_indices(out, [&](const std::vector<int64_t>& at) {
                   int64_t flat = 0;
                   for (size_t d = 0; d < rank; ++d) flat += (padded[d] == 1 ? 0 : at[d]) * strides[d];
                   return flat;
                 }))};
}

Values fold_constant_of_shape(const FoldContext& c) {
  const Shape dims = c.ints(0);
  c.check_output_size(dims);
  const int64_t count = element_count(dims);
  const ConstantValue fill = c.attributes().has("value") ? decode(c.attributes().get_tensor("value"))
                                                         : ConstantValue::of_reals({1}, {0.0});
  if (fill.size() != 1) c.fail("'value' must hold one element");
  return {picked(fill, dims, std::vector<int64_t>(static_cast<size_t>(count), 0))};
}

Values fold_range(const FoldContext& c) {
  const ConstantValue& start = c.value(0);
  const double first = start.real(0), limit = c.value(1).real(0), delta = c.value(2).real(0);
  if (delta == 0) c.fail("delta is 0");
  const double steps = std::ceil((limit - first) / delta);
  // Checked as a double: casting NaN or a value past int64 is undefined.
  if (std::isnan(steps) || steps > static_cast<double>(c.max_grown_elements()))
    c.fail("range from " + std::to_string(first) + " to " + std::to_string(limit) + " by " + std::to_string(delta) +
           " has more than " + std::to_string(c.max_grown_elements()) + " elements");
  const auto count = static_cast<int64_t>(std::max(0.0, steps));
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(first + static_cast<double>(i) * delta);
  if (start.floating()) return {ConstantValue::of_reals({count}, std::move(values), start.type)};
  std::vector<int64_t> ints(values.begin(), values.end());
  return {ConstantValue::of_ints({count}, std::move(ints), start.type)};
}

// data with the slices that index tuples of `indices` name replaced by `updates` (swin's
// shifted-window mask, built by slice assignment on a constant).
Values fold_scatter_nd(const FoldContext& c) {
  if (c.attributes().get_string("reduction", "none") != "none") c.fail("only reduction 'none' is supported");
  ConstantValue out = c.value(0);
  const ConstantValue& indices = c.value(1);
  const ConstantValue& updates = c.value(2);
  if (indices.dims.empty() || updates.floating() != out.floating()) c.fail("indices or updates do not fit the data");
  const auto depth = static_cast<size_t>(indices.dims.back());
  if (depth == 0 || depth > out.dims.size())
    c.fail("index tuples of length " + std::to_string(depth) + " do not fit rank " + std::to_string(out.dims.size()));
  const int64_t slice = element_count(Shape(out.dims.begin() + static_cast<std::ptrdiff_t>(depth), out.dims.end()));
  const int64_t tuples = element_count(indices.dims) / static_cast<int64_t>(depth);
  if (static_cast<int64_t>(updates.size()) != tuples * slice)
    c.fail("updates hold " + std::to_string(updates.size()) + " elements, expected " + std::to_string(tuples * slice));
  const std::vector<int64_t> strides = strides_of(out.dims);
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (size_t d = 0; d < depth; ++d) {
      int64_t index = indices.integer(static_cast<size_t>(t) * depth + d);
      if (index < -out.dims[d] || index >= out.dims[d])
        c.fail("index " + std::to_string(index) + " is out of range for axis " + std::to_string(d));
      if (index < 0) index += out.dims[d];
      offset += index * strides[d];
    }
    for (int64_t e = 0; e < slice; ++e) {
      const auto to = static_cast<size_t>(offset + e), from = static_cast<size_t>(t * slice + e);
      if (out.floating()) out.reals[to] = updates.real(from);
      else out.ints[to] = updates.integer(from);
    }
  }
  return {out};
}

}  // namespace

const std::vector<std::pair<std::string_view, FoldRule>>& shape_fold_rules() {
  static const std::vector<std::pair<std::string_view, FoldRule>> rules = {
      {"Constant", {fold_constant}},
      {"Identity", {fold_identity}},
      {"Cast", {fold_cast}},
      {"Shape", {fold_shape, true}},
      {"Size", {fold_size, true}},
      {"Gather", {fold_gather}},
      {"Unsqueeze", {fold_unsqueeze}},
      {"Squeeze", {fold_squeeze}},
      {"Concat", {fold_concat}},
      {"Slice", {fold_slice}},
      {"Reshape", {fold_reshape}},
      {"Flatten", {fold_flatten}},
      {"Transpose", {fold_transpose}},
      {"Expand", {fold_expand}},
      {"ConstantOfShape", {fold_constant_of_shape}},
      {"Range", {fold_range}},
      {"ScatterND", {fold_scatter_nd}},
  };
  return rules;
}

}  // namespace layoutopt::graph::onnx
