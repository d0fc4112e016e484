// Converters for operators that move or select activation data: Squeeze and Unsqueeze
// (reshapes of a static shape), Slice, Split and Gather (slices), and ReduceMean (global
// average pooling when it averages H and W of an NCHW tensor).
#include <algorithm>
#include <numeric>

#include "converters.h"
#include "slice_range.h"

namespace layoutopt::graph::onnx {

namespace {

/// Axes normalized against `rank`, sorted, without repeats.
std::vector<int64_t> normalized_axes(const NodeContext& node, std::vector<int64_t> axes, size_t rank) {
  for (int64_t& axis : axes) {
    if (axis < -static_cast<int64_t>(rank) || axis >= static_cast<int64_t>(rank))
      node.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    if (axis < 0) axis += static_cast<int64_t>(rank);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

bool contains(const std::vector<int64_t>& axes, size_t axis) {
  return std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(axis));
}

/// Input 1 as axes (opset 13+; older files are adapted to it), or `fallback` when absent.
std::vector<int64_t> axes_input(const NodeContext& node, size_t slot, std::vector<int64_t> fallback) {
  return node.has_input(slot) ? node.constant_ints(slot) : fallback;
}

ValueId add_slice(const NodeContext& node, ValueId x, int64_t axis, int64_t start, int64_t end) {
  return node.add(Slice{.axis = axis, .start = start, .end = end, .step = 1}, {x});
}

}  // namespace

ValueId convert_squeeze(NodeContext& node) {
  const ValueId x = node.input(0);
  const Shape& in = node.shape(x);
  const std::vector<int64_t> axes = normalized_axes(node, axes_input(node, 1, {}), in.size());
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (contains(axes, d) && in[d] != 1) node.fail("cannot squeeze axis " + std::to_string(d) + " of " + to_string(in));
    if (!(contains(axes, d) || (axes.empty() && in[d] == 1))) out.push_back(in[d]);
  }
  return node.add(Reshape{.shape = out}, {x});
}

ValueId convert_unsqueeze(NodeContext& node) {
  const ValueId x = node.input(0);
  const Shape& in = node.shape(x);
  const std::vector<int64_t> raw = node.constant_ints(1);
  const std::vector<int64_t> axes = normalized_axes(node, raw, in.size() + raw.size());
  Shape out;
  for (size_t d = 0, next = 0; d < in.size() + axes.size(); ++d) out.push_back(contains(axes, d) ? 1 : in[next++]);
  return node.add(Reshape{.shape = out}, {x});
}

// One IR slice per axis that is not taken whole.
ValueId convert_slice(NodeContext& node) {
  ValueId x = node.input(0);
  const std::vector<int64_t> starts = node.constant_ints(1), ends = node.constant_ints(2);
  std::vector<int64_t> all(starts.size());
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int64_t> axes = node.has_input(3) ? node.constant_ints(3) : all;
  const std::vector<int64_t> steps = node.has_input(4) ? node.constant_ints(4) : std::vector<int64_t>(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    node.fail("starts, ends, axes and steps differ in length");
  const size_t rank = node.shape(x).size();
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t axis = normalized_axes(node, {axes[i]}, rank).front();
    const int64_t extent = node.shape(x)[static_cast<size_t>(axis)];
    const SliceRange range = slice_range(extent, starts[i], ends[i], steps[i]);
    if (range.step < 1) node.fail("step " + std::to_string(steps[i]) + " is not supported (only positive steps)");
    if (range.count < 1) node.fail("the slice of axis " + std::to_string(axis) + " is empty");
    if (range.start == 0 && range.step == 1 && range.count == extent) continue;
    x = node.add(Slice{.axis = axis, .start = range.start, .end = range.start + (range.count - 1) * range.step + 1,
                       .step = range.step},
                 {x});
  }
  return x == node.input(0) ? node.add(Identity{}, {x}) : x;
}

// Gather with constant indices that pick one element (a scalar index drops the axis, ViT's
// class token) or an ascending run of them along the axis: a slice.
ValueId convert_gather(NodeContext& node) {
  const ValueId x = node.input(0);
  const Shape in = node.shape(x);
  const int64_t axis = normalized_axes(node, {node.attributes().get_int("axis", 0)}, in.size()).front();
  if (!node.is_constant(1)) node.fail("indices computed by the graph are not supported (only constant indices)");
  const Shape index_shape = node.constant_shape(1);
  std::vector<int64_t> indices = node.constant_ints(1);
  const int64_t extent = in[static_cast<size_t>(axis)];
  for (int64_t& index : indices) {
    if (index < -extent || index >= extent) node.fail("index " + std::to_string(index) + " is out of range for extent " + std::to_string(extent));
    if (index < 0) index += extent;
  }
  const bool run = !indices.empty() && index_shape.size() <= 1 &&
                   std::adjacent_find(indices.begin(), indices.end(), [](int64_t a, int64_t b) { return b != a + 1; }) == indices.end();
  if (!run) node.fail("indices of shape " + to_string(index_shape) + " that are not one index or an ascending run are not supported");
  const ValueId slice = add_slice(node, x, axis, indices.front(), indices.back() + 1);
  if (!index_shape.empty()) return slice;
  Shape out = in;
  out.erase(out.begin() + axis);
  return node.add(Reshape{.shape = out}, {slice});
}

/// Split sizes: the split input (opset 13+), else opset 18's num_outputs, else equal parts
/// for each output (the last one smaller when the extent does not divide).
std::vector<int64_t> split_sizes(const NodeContext& node, int64_t extent) {
  if (node.has_input(1)) return node.constant_ints(1);
  const int64_t parts = node.attributes().get_int("num_outputs", static_cast<int64_t>(node.output_count()));
  const int64_t size = (extent + parts - 1) / parts;
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < extent; start += size) sizes.push_back(std::min(size, extent - start));
  return sizes;
}

ValueId convert_split(NodeContext& node) {
  const ValueId x = node.input(0);
  const Shape& in = node.shape(x);
  const int64_t axis = normalized_axes(node, {node.attributes().get_int("axis", 0)}, in.size()).front();
  const std::vector<int64_t> sizes = split_sizes(node, in[static_cast<size_t>(axis)]);
  if (sizes.size() != node.output_count())
    node.fail(std::to_string(sizes.size()) + " split sizes for " + std::to_string(node.output_count()) + " outputs");
  if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != in[static_cast<size_t>(axis)])
    node.fail("split sizes " + to_string(sizes) + " do not add up to the extent " + std::to_string(in[static_cast<size_t>(axis)]));
  ValueId first = -1;
  int64_t start = 0;
  for (size_t k = 0; k < sizes.size(); start += sizes[k], ++k) {
    if (!node.output_used(k) && k > 0) continue;
    const ValueId part = add_slice(node, x, axis, start, start + sizes[k]);
    if (k == 0) first = part;
    else node.bind_output(k, part);
  }
  return first;
}

ValueId convert_reduce_mean(NodeContext& node) {
  const ValueId x = node.input(0);
  const Shape& in = node.shape(x);
  std::vector<int64_t> all(in.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<int64_t> axes = axes_input(node, 1, {});
  if (axes.empty() && node.attributes().get_int("noop_with_empty_axes", 0) != 0) return node.add(Identity{}, {x});
  axes = normalized_axes(node, axes.empty() ? all : axes, in.size());
  const bool keep_dims = node.attributes().get_int("keepdims", 1) != 0;
  if (in.size() == 4 && axes == std::vector<int64_t>{2, 3}) {
    const ValueId pooled = node.add(GlobalAvgPool{}, {x});
    return keep_dims ? pooled : node.add(Flatten{.axis = 1}, {pooled});
  }
  return node.add(ReduceMean{.axes = axes, .keep_dims = keep_dims}, {x});
}

}  // namespace layoutopt::graph::onnx
