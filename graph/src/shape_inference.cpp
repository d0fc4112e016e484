#include "layoutopt/graph/shape_inference.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/overloaded.h"
#include "layoutopt/graph/topology.h"

namespace layoutopt::graph {

namespace {

/// Collects the context every message needs, so each check is one line.
class Checker {
 public:
  Checker(const Graph& graph, const Node& node) : graph_(graph), node_(node) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw GraphError("node '" + node_.name + "' (" + op_name(node_.op) + "): " + what);
  }

  void expect_input_count(size_t expected) const {
    if (node_.inputs.size() != expected)
      fail("expected " + std::to_string(expected) + " inputs, found " + std::to_string(node_.inputs.size()));
  }
  void expect_at_least(size_t expected) const {
    if (node_.inputs.size() < expected)
      fail("expected at least " + std::to_string(expected) + " inputs, found " + std::to_string(node_.inputs.size()));
  }

  [[nodiscard]] const Shape& shape(size_t input) const { return value(input).type.shape; }
  [[nodiscard]] size_t input_count() const { return node_.inputs.size(); }

  [[nodiscard]] std::string describe(size_t input) const {
    return "input " + std::to_string(input) + " '" + value(input).name + "'";
  }

  void expect_rank(size_t input, size_t rank) const {
    if (shape(input).size() != rank)
      fail(describe(input) + " has shape " + to_string(shape(input)) + ", expected rank " + std::to_string(rank));
  }

  void expect_shape(size_t input, const Shape& expected, const std::string& why) const {
    if (shape(input) != expected)
      fail(describe(input) + " has shape " + to_string(shape(input)) + ", expected " + to_string(expected) +
           (why.empty() ? "" : " (" + why + ")"));
  }

  void expect_f32(size_t input) const {
    if (value(input).type.dtype != DType::f32)
      fail(describe(input) + " has dtype " + to_string(value(input).type.dtype) + ", expected f32");
  }

  void expect_positive(const char* what, int64_t a, int64_t b) const {
    if (a < 1 || b < 1) fail(std::string(what) + " must be positive, found " + std::to_string(a) + "x" + std::to_string(b));
  }

  [[nodiscard]] int64_t normalize_axis(int64_t axis, size_t rank, bool inclusive_end = false) const {
    const auto r = static_cast<int64_t>(rank);
    const int64_t normalized = axis < 0 ? axis + r : axis;
    if (normalized < 0 || normalized > r - (inclusive_end ? 0 : 1))
      fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return normalized;
  }

 private:
  [[nodiscard]] const Value& value(size_t input) const { return graph_.value(node_.inputs[input]); }
  const Graph& graph_;
  const Node& node_;
};

Shape sliding_window_shape(const Checker& check, const Shape& x, int64_t channels, Hw kernel, Hw stride, Hw dilation,
                           const Pads2d& pads, bool ceil_mode) {
  check.expect_positive("kernel", kernel.h, kernel.w);
  check.expect_positive("stride", stride.h, stride.w);
  check.expect_positive("dilation", dilation.h, dilation.w);
  if (pads.top < 0 || pads.left < 0 || pads.bottom < 0 || pads.right < 0) check.fail("negative padding");
  const int64_t oh = window_output_extent(x[2], kernel.h, stride.h, dilation.h, pads.top, pads.bottom, ceil_mode);
  const int64_t ow = window_output_extent(x[3], kernel.w, stride.w, dilation.w, pads.left, pads.right, ceil_mode);
  if (oh < 1 || ow < 1)
    check.fail("window " + std::to_string(kernel.h) + "x" + std::to_string(kernel.w) + " does not fit input " +
               to_string(x) + " with the given padding");
  return {x[0], channels, oh, ow};
}

TensorType infer_conv(const Checker& check, const Conv2d& conv) {
  const size_t expected = 2 + (conv.epilogue.bias ? 1 : 0) + (conv.epilogue.residual ? 1 : 0);
  check.expect_input_count(expected);
  check.expect_rank(0, 4);
  check.expect_rank(1, 4);
  check.expect_f32(0);
  const Shape& x = check.shape(0);
  const Shape& w = check.shape(1);
  if (conv.groups < 1) check.fail("groups must be positive, found " + std::to_string(conv.groups));
  if (x[1] % conv.groups != 0)
    check.fail("input channels " + std::to_string(x[1]) + " are not divisible by groups " + std::to_string(conv.groups));
  if (w[0] % conv.groups != 0)
    check.fail("output channels " + std::to_string(w[0]) + " are not divisible by groups " + std::to_string(conv.groups));
  check.expect_shape(1, {w[0], x[1] / conv.groups, conv.kernel.h, conv.kernel.w},
                     "weight is [out, in/groups, kernel_h, kernel_w]");
  const Shape out = sliding_window_shape(check, x, w[0], conv.kernel, conv.stride, conv.dilation, conv.pads, false);
  size_t next = 2;
  if (conv.epilogue.bias) check.expect_shape(next++, {w[0]}, "bias has one value per output channel");
  if (conv.epilogue.residual) check.expect_shape(next, out, "residual is added to the output");
  return {out, DType::f32};
}

TensorType infer_dense(const Checker& check, const Dense& dense) {
  if (dense.epilogue.residual) check.fail("dense does not support a residual epilogue");
  check.expect_input_count(dense.epilogue.bias ? 3 : 2);
  check.expect_rank(0, 2);
  check.expect_rank(1, 2);
  const Shape& x = check.shape(0);
  const int64_t out_features = check.shape(1)[0];
  check.expect_shape(1, {out_features, x[1]}, "weight is [out_features, in_features]");
  if (dense.epilogue.bias) check.expect_shape(2, {out_features}, "bias has one value per output feature");
  return {{x[0], out_features}, DType::f32};
}

TensorType infer_batch_norm(const Checker& check) {
  check.expect_input_count(5);
  if (check.shape(0).size() < 2)
    check.fail(check.describe(0) + " has shape " + to_string(check.shape(0)) + ", expected rank 2 or more (N, C, ...)");
  const int64_t channels = check.shape(0)[1];
  for (size_t i = 1; i < 5; ++i) check.expect_shape(i, {channels}, "one value per channel");
  return {check.shape(0), DType::f32};
}

TensorType infer_unary(const Checker& check) {
  check.expect_input_count(1);
  return {check.shape(0), DType::f32};
}

TensorType infer_broadcast(const Checker& check) {
  check.expect_input_count(2);
  const Shape& a = check.shape(0);
  const Shape& b = check.shape(1);
  Shape out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t da = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const int64_t db = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (da != db && da != 1 && db != 1)
      check.fail("shapes " + to_string(a) + " and " + to_string(b) + " do not broadcast (axis " + std::to_string(i) + ")");
    out[i] = std::max(da, db);
  }
  return {out, DType::f32};
}

TensorType infer_concat(const Checker& check, const Concat& concat) {
  check.expect_at_least(1);
  const Shape& first = check.shape(0);
  const auto axis = static_cast<size_t>(check.normalize_axis(concat.axis, first.size()));
  Shape out = first;
  out[axis] = 0;
  for (size_t input = 0; input < check.input_count(); ++input) {
    const Shape& s = check.shape(input);
    Shape expected = first;
    if (s.size() == first.size()) expected[axis] = s[axis];
    check.expect_shape(input, expected, "concat inputs agree on every axis but " + std::to_string(axis));
    out[axis] += s[axis];
  }
  return {out, DType::f32};
}

TensorType infer_pool(const Checker& check, const Pool2d& pool) {
  check.expect_input_count(1);
  check.expect_rank(0, 4);
  const Shape& x = check.shape(0);
  return {sliding_window_shape(check, x, x[1], pool.kernel, pool.stride, {1, 1}, pool.pads, pool.ceil_mode), DType::f32};
}

TensorType infer_global_pool(const Checker& check) {
  check.expect_input_count(1);
  check.expect_rank(0, 4);
  const Shape& x = check.shape(0);
  return {{x[0], x[1], 1, 1}, DType::f32};
}

TensorType infer_flatten(const Checker& check, const Flatten& flatten) {
  check.expect_input_count(1);
  const Shape& x = check.shape(0);
  const auto axis = static_cast<size_t>(check.normalize_axis(flatten.axis, x.size(), true));
  const int64_t outer = std::accumulate(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis), int64_t{1},
                                        std::multiplies<>());
  return {{outer, element_count(x) / std::max<int64_t>(outer, 1)}, DType::f32};
}

TensorType infer_reshape(const Checker& check, const Reshape& reshape) {
  check.expect_input_count(1);
  const Shape& x = check.shape(0);
  Shape out = reshape.shape;
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (i >= x.size()) check.fail("target dimension " + std::to_string(i) + " copies a missing input dimension");
      out[i] = x[i];
    }
    if (out[i] == -1) {
      if (inferred) check.fail("target shape " + to_string(reshape.shape) + " has more than one -1");
      inferred = i;
      continue;
    }
    if (out[i] < 1) check.fail("target shape " + to_string(reshape.shape) + " has an invalid dimension");
    known *= out[i];
  }
  const int64_t total = element_count(x);
  if (inferred) {
    if (known == 0 || total % known != 0)
      check.fail("cannot reshape " + to_string(x) + " to " + to_string(reshape.shape));
    out[*inferred] = total / known;
  }
  if (element_count(out) != total)
    check.fail("cannot reshape " + to_string(x) + " (" + std::to_string(total) + " elements) to " + to_string(out));
  return {out, DType::f32};
}

TensorType infer_transpose(const Checker& check, const Transpose& transpose) {
  check.expect_input_count(1);
  const Shape& x = check.shape(0);
  std::vector<int64_t> sorted = transpose.perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted.size() != x.size() || sorted[i] != static_cast<int64_t>(i))
      check.fail("permutation " + to_string(transpose.perm) + " does not fit rank " + std::to_string(x.size()));
  Shape out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = x[static_cast<size_t>(transpose.perm[i])];
  return {out, DType::f32};
}

TensorType infer_softmax(const Checker& check, const Softmax& softmax) {
  check.expect_input_count(1);
  (void)check.normalize_axis(softmax.axis, check.shape(0).size());
  return {check.shape(0), DType::f32};
}

TensorType infer_pad(const Checker& check, const Pad& pad) {
  check.expect_input_count(1);
  check.expect_rank(0, 4);
  const Pads2d& p = pad.pads;
  if (p.top < 0 || p.left < 0 || p.bottom < 0 || p.right < 0) check.fail("negative padding");
  const Shape& x = check.shape(0);
  return {{x[0], x[1], x[2] + p.top + p.bottom, x[3] + p.left + p.right}, DType::f32};
}

}  // namespace

int64_t window_output_extent(int64_t input, int64_t kernel, int64_t stride, int64_t dilation, int64_t pad_begin,
                             int64_t pad_end, bool ceil_mode) {
  const int64_t span = input + pad_begin + pad_end - dilation * (kernel - 1) - 1;
  if (span < 0) return 0;
  int64_t extent = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
  // With ceil_mode the last window must still start inside the input or its begin padding
  // (the rule PyTorch and ONNX Runtime follow).
  if (ceil_mode && (extent - 1) * stride >= input + pad_begin) --extent;
  return extent;
}

TensorType infer_output_type(const Graph& graph, const Node& node) {
  const Checker check(graph, node);
  for (size_t i = 0; i < node.inputs.size(); ++i) check.expect_f32(i);
  return std::visit(Overloaded{
                        [&](const Conv2d& op) { return infer_conv(check, op); },
                        [&](const Dense& op) { return infer_dense(check, op); },
                        [&](const BatchNorm&) { return infer_batch_norm(check); },
                        [&](const Add&) { return infer_broadcast(check); },
                        [&](const Mul&) { return infer_broadcast(check); },
                        [&](const Concat& op) { return infer_concat(check, op); },
                        [&](const Pool2d& op) { return infer_pool(check, op); },
                        [&](const GlobalAvgPool&) { return infer_global_pool(check); },
                        [&](const Flatten& op) { return infer_flatten(check, op); },
                        [&](const Reshape& op) { return infer_reshape(check, op); },
                        [&](const Transpose& op) { return infer_transpose(check, op); },
                        [&](const Softmax& op) { return infer_softmax(check, op); },
                        [&](const Pad& op) { return infer_pad(check, op); },
                        [&](const auto&) { return infer_unary(check); },  // relu, clip, sigmoid, dropout, identity
                    },
                    node.op);
}

void infer_shapes(Graph& graph) {
  for (NodeId id : topological_order(graph)) {
    Node& node = graph.node(id);
    graph.value(node.output).type = infer_output_type(graph, node);
  }
}

}  // namespace layoutopt::graph
