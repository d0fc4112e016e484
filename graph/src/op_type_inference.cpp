#include "layoutopt/graph/op_type_inference.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/overloaded.h"

namespace layoutopt::graph {

namespace {

/// Window attributes and spatial extents come from files. Bounding them keeps every
/// output-extent formula (a few sums and one product of them) far inside int64_t, and no
/// real kernel, stride, dilation, pad or image comes near the bounds.
constexpr int64_t kMaxWindowAttribute = int64_t{1} << 20;
constexpr int64_t kMaxSpatialExtent = int64_t{1} << 31;

/// Collects the context every message needs, so each check is one line.
class Checker {
 public:
  Checker(const std::string& node_name, const Op& op, const std::vector<TypedOperand>& inputs)
      : node_name_(node_name), op_(op), inputs_(inputs) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw GraphError("node '" + node_name_ + "' (" + op_name(op_) + "): " + what);
  }

  void expect_input_count(size_t expected) const {
    if (inputs_.size() != expected)
      fail("expected " + std::to_string(expected) + " inputs, found " + std::to_string(inputs_.size()));
  }
  void expect_at_least(size_t expected) const {
    if (inputs_.size() < expected)
      fail("expected at least " + std::to_string(expected) + " inputs, found " + std::to_string(inputs_.size()));
  }

  [[nodiscard]] const Shape& shape(size_t input) const { return value(input).type.shape; }
  [[nodiscard]] size_t input_count() const { return inputs_.size(); }

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

  /// A window attribute pair (kernel, stride, dilation, resize size): 1 to kMaxWindowAttribute.
  void expect_positive(const char* what, int64_t a, int64_t b) const {
    if (a < 1 || b < 1 || a > kMaxWindowAttribute || b > kMaxWindowAttribute)
      fail(std::string(what) + " must be 1 to " + std::to_string(kMaxWindowAttribute) + ", found " + std::to_string(a) +
           "x" + std::to_string(b));
  }

  void expect_non_negative(const Pads2d& pads) const {
    if (pads.top < 0 || pads.left < 0 || pads.bottom < 0 || pads.right < 0) fail("negative padding");
    if (std::max({pads.top, pads.left, pads.bottom, pads.right}) > kMaxWindowAttribute)
      fail("padding above " + std::to_string(kMaxWindowAttribute));
  }

  /// H and W of a 4-D input, before window arithmetic uses them.
  void expect_spatial_extents(size_t input) const {
    const Shape& x = shape(input);
    if (x[2] > kMaxSpatialExtent || x[3] > kMaxSpatialExtent)
      fail(describe(input) + " has shape " + to_string(x) + ", beyond " + std::to_string(kMaxSpatialExtent) +
           " pixels a side");
  }

  void expect_rank_at_least(size_t input, size_t rank, const char* dimensions) const {
    if (shape(input).size() < rank)
      fail(describe(input) + " has shape " + to_string(shape(input)) + ", expected rank " + std::to_string(rank) +
           " or more (" + dimensions + ")");
  }

  [[nodiscard]] int64_t normalize_axis(int64_t axis, size_t rank, bool inclusive_end = false) const {
    const auto r = static_cast<int64_t>(rank);
    const int64_t normalized = axis < 0 ? axis + r : axis;
    if (normalized < 0 || normalized > r - (inclusive_end ? 0 : 1))
      fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return normalized;
  }

 private:
  [[nodiscard]] const TypedOperand& value(size_t input) const { return inputs_[input]; }
  const std::string& node_name_;
  const Op& op_;
  const std::vector<TypedOperand>& inputs_;
};

Shape sliding_window_shape(const Checker& check, const Shape& x, int64_t channels, Hw kernel, Hw stride, Hw dilation,
                           const Pads2d& pads, bool ceil_mode) {
  check.expect_positive("kernel", kernel.h, kernel.w);
  check.expect_positive("stride", stride.h, stride.w);
  check.expect_positive("dilation", dilation.h, dilation.w);
  check.expect_non_negative(pads);
  check.expect_spatial_extents(0);
  const int64_t oh = window_output_extent(x[2], kernel.h, stride.h, dilation.h, pads.top, pads.bottom, ceil_mode);
  const int64_t ow = window_output_extent(x[3], kernel.w, stride.w, dilation.w, pads.left, pads.right, ceil_mode);
  if (oh < 1 || ow < 1)
    check.fail("window " + std::to_string(kernel.h) + "x" + std::to_string(kernel.w) + " does not fit input " +
               to_string(x) + " with the given padding");
  return {x[0], channels, oh, ow};
}

TensorType infer_conv(const Checker& check, const Conv2d& conv) {
  const ConvInputs inputs = conv_inputs(conv);
  check.expect_input_count(inputs.count);
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
  if (inputs.bias) check.expect_shape(*inputs.bias, {w[0]}, "bias has one value per output channel");
  if (inputs.residual) check.expect_shape(*inputs.residual, out, "residual is added to the output");
  if (inputs.scale)
    check.expect_shape(*inputs.scale, {x[0], x[1], 1, 1}, "scale has one value per image and input channel");
  if (conv.prologue) {
    check.expect_shape(*inputs.prologue_scale, {x[1]}, "the prologue's scale has one value per input channel");
    check.expect_shape(*inputs.prologue_shift, {x[1]}, "the prologue's shift has one value per input channel");
  }
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
  check.expect_rank_at_least(0, 2, "N, C, ...");
  const int64_t channels = check.shape(0)[1];
  for (size_t i = 1; i < 5; ++i) check.expect_shape(i, {channels}, "one value per channel");
  return {check.shape(0), DType::f32};
}

TensorType infer_layer_norm(const Checker& check, const LayerNorm& norm) {
  check.expect_input_count(3);
  const Shape& x = check.shape(0);
  if (norm.axis < 0 || norm.axis >= static_cast<int64_t>(x.size()))
    check.fail("axis " + std::to_string(norm.axis) + " is out of range for input " + to_string(x));
  if (!(norm.epsilon >= 0.0f)) check.fail("epsilon must be non-negative, found " + std::to_string(norm.epsilon));
  const int64_t extent = x[static_cast<size_t>(norm.axis)];
  for (size_t i = 1; i < 3; ++i) check.expect_shape(i, {extent}, "one value per position along the normalized axis");
  return {x, DType::f32};
}

// a[..., M, K] x b[..., K, N] -> [..., M, N], the leading axes broadcast.
TensorType infer_batch_matmul(const Checker& check) {
  check.expect_input_count(2);
  const Shape& a = check.shape(0);
  const Shape& b = check.shape(1);
  if (a.size() < 2 || b.size() < 2)
    check.fail("inputs of shapes " + to_string(a) + " and " + to_string(b) + " must both have rank 2 or more");
  if (a.back() != b[b.size() - 2])
    check.fail("inner extents differ: " + to_string(a) + " x " + to_string(b));
  Broadcast leading = broadcast_shapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
  if (leading.clash)
    check.fail("leading axes of " + to_string(a) + " and " + to_string(b) + " do not broadcast (axis " +
               std::to_string(*leading.clash) + ")");
  Shape out = std::move(leading.shape);
  out.push_back(a[a.size() - 2]);
  out.push_back(b.back());
  return {out, DType::f32};
}

TensorType infer_unary(const Checker& check) {
  check.expect_input_count(1);
  return {check.shape(0), DType::f32};
}

/// Numpy broadcasting of inputs 0 and 1.
Shape broadcast_shape(const Checker& check) {
  const Shape& a = check.shape(0);
  const Shape& b = check.shape(1);
  Broadcast both = broadcast_shapes(a, b);
  if (both.clash)
    check.fail("shapes " + to_string(a) + " and " + to_string(b) + " do not broadcast (axis " +
               std::to_string(*both.clash) + ")");
  return std::move(both.shape);
}

TensorType infer_broadcast(const Checker& check) {
  check.expect_input_count(2);
  return {broadcast_shape(check), DType::f32};
}

// The slope broadcasts to x, never x to the slope: the output keeps x's shape.
TensorType infer_prelu(const Checker& check) {
  check.expect_input_count(2);
  if (broadcast_shape(check) != check.shape(0))
    check.fail("slope " + check.describe(1) + " of shape " + to_string(check.shape(1)) + " does not broadcast to " +
               check.describe(0) + " of shape " + to_string(check.shape(0)));
  return {check.shape(0), DType::f32};
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
    if (__builtin_add_overflow(out[axis], s[axis], &out[axis])) check.fail("the joined extent does not fit 64 bits");
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
  try {
    return {resolve_reshape_target(check.shape(0), reshape.shape), DType::f32};
  } catch (const GraphError& problem) {
    check.fail(problem.what());
  }
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
  check.expect_non_negative(p);
  check.expect_spatial_extents(0);
  const Shape& x = check.shape(0);
  return {{x[0], x[1], x[2] + p.top + p.bottom, x[3] + p.left + p.right}, DType::f32};
}

TensorType infer_reduce_mean(const Checker& check, const ReduceMean& reduce) {
  check.expect_input_count(1);
  const Shape& x = check.shape(0);
  if (reduce.axes.empty()) check.fail("no axes to reduce");
  for (size_t i = 0; i < reduce.axes.size(); ++i) {
    const int64_t axis = reduce.axes[i];
    if (axis < 0 || axis >= static_cast<int64_t>(x.size()) || (i > 0 && axis <= reduce.axes[i - 1]))
      check.fail("axes " + to_string(reduce.axes) + " must be ascending and within [0, " + std::to_string(x.size()) +
                 ") for input " + to_string(x));
  }
  Shape out;
  for (size_t axis = 0; axis < x.size(); ++axis) {
    const bool reduced =
        std::find(reduce.axes.begin(), reduce.axes.end(), static_cast<int64_t>(axis)) != reduce.axes.end();
    if (!reduced) out.push_back(x[axis]);
    else if (reduce.keep_dims) out.push_back(1);
  }
  return {out, DType::f32};
}

// Checks the weight [I, O/groups, KH, KW] and the optional bias; returns the output channels.
int64_t conv_transpose_channels(const Checker& check, const ConvTranspose2d& conv) {
  check.expect_input_count(conv.bias ? 3 : 2);
  check.expect_rank(0, 4);
  check.expect_rank(1, 4);
  const int64_t in_channels = check.shape(0)[1];
  if (conv.groups < 1) check.fail("groups must be positive, found " + std::to_string(conv.groups));
  if (in_channels % conv.groups != 0)
    check.fail("input channels " + std::to_string(in_channels) + " are not divisible by groups " +
               std::to_string(conv.groups));
  const int64_t out_per_group = check.shape(1)[1];
  check.expect_shape(1, {in_channels, out_per_group, conv.kernel.h, conv.kernel.w},
                     "weight is [in, out/groups, kernel_h, kernel_w]");
  const int64_t out_channels = out_per_group * conv.groups;
  if (conv.bias) check.expect_shape(2, {out_channels}, "bias has one value per output channel");
  return out_channels;
}

TensorType infer_conv_transpose(const Checker& check, const ConvTranspose2d& conv) {
  const int64_t out_channels = conv_transpose_channels(check, conv);
  check.expect_positive("kernel", conv.kernel.h, conv.kernel.w);
  check.expect_positive("stride", conv.stride.h, conv.stride.w);
  check.expect_positive("dilation", conv.dilation.h, conv.dilation.w);
  check.expect_non_negative(conv.pads);
  check.expect_spatial_extents(0);
  const Hw& extra = conv.output_padding;
  // output_padding only picks among the input extents a strided conv maps to one output
  // extent, so it stays below the stride or the dilation (PyTorch refuses more too).
  if (extra.h < 0 || extra.w < 0 || extra.h >= std::max(conv.stride.h, conv.dilation.h) ||
      extra.w >= std::max(conv.stride.w, conv.dilation.w))
    check.fail("output_padding " + std::to_string(extra.h) + "x" + std::to_string(extra.w) +
               " must be non-negative and smaller than the stride or the dilation");
  const Shape& x = check.shape(0);
  const int64_t oh = transposed_window_output_extent(x[2], conv.kernel.h, conv.stride.h, conv.dilation.h,
                                                     conv.pads.top, conv.pads.bottom, extra.h);
  const int64_t ow = transposed_window_output_extent(x[3], conv.kernel.w, conv.stride.w, conv.dilation.w,
                                                     conv.pads.left, conv.pads.right, extra.w);
  if (oh < 1 || ow < 1)
    check.fail("padding removes the whole output of input " + to_string(x) + " (" + std::to_string(oh) + "x" +
               std::to_string(ow) + ")");
  return {{x[0], out_channels, oh, ow}, DType::f32};
}

TensorType infer_lrn(const Checker& check, const Lrn& lrn) {
  check.expect_input_count(1);
  check.expect_rank_at_least(0, 2, "N, C, ...");
  if (lrn.size < 1) check.fail("size must be positive, found " + std::to_string(lrn.size));
  return {check.shape(0), DType::f32};
}

TensorType infer_resize(const Checker& check, const Resize& resize) {
  check.expect_input_count(1);
  check.expect_rank(0, 4);
  check.expect_positive("size", resize.size.h, resize.size.w);
  // Written as a negation so that NaN scales fail too.
  if (!(resize.scale_h > 0.0) || !(resize.scale_w > 0.0))
    check.fail("scales must be positive, found " + std::to_string(resize.scale_h) + "x" +
               std::to_string(resize.scale_w));
  const Shape& x = check.shape(0);
  return {{x[0], x[1], resize.size.h, resize.size.w}, DType::f32};
}

TensorType infer_slice(const Checker& check, const Slice& slice) {
  check.expect_input_count(1);
  const Shape& x = check.shape(0);
  if (slice.axis < 0 || slice.axis >= static_cast<int64_t>(x.size()))
    check.fail("axis " + std::to_string(slice.axis) + " is out of range for input " + to_string(x));
  const int64_t extent = x[static_cast<size_t>(slice.axis)];
  if (slice.step < 1 || slice.start < 0 || slice.start >= slice.end || slice.end > extent)
    check.fail("slice [" + std::to_string(slice.start) + ", " + std::to_string(slice.end) + ") step " +
               std::to_string(slice.step) + " is not within axis " + std::to_string(slice.axis) + " of extent " +
               std::to_string(extent) + " (needs 0 <= start < end <= extent, step >= 1)");
  Shape out = x;
  out[static_cast<size_t>(slice.axis)] = slice_output_extent(slice.start, slice.end, slice.step);
  return {out, DType::f32};
}

TensorType infer_channel_shuffle(const Checker& check, const ChannelShuffle& shuffle) {
  check.expect_input_count(1);
  check.expect_rank(0, 4);
  const int64_t channels = check.shape(0)[1];
  if (shuffle.groups < 1 || channels % shuffle.groups != 0)
    check.fail("channels " + std::to_string(channels) + " are not divisible into " + std::to_string(shuffle.groups) +
               " groups");
  return {check.shape(0), DType::f32};
}

}  // namespace

Broadcast broadcast_shapes(const Shape& a, const Shape& b) {
  Broadcast result{Shape(std::max(a.size(), b.size()), 1), std::nullopt};
  const size_t rank = result.shape.size();
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return {{}, i};
    result.shape[i] = da == 1 ? db : da;  // an extent of 1 stretches to the other, also to 0
  }
  return result;
}

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

int64_t transposed_window_output_extent(int64_t input, int64_t kernel, int64_t stride, int64_t dilation,
                                        int64_t pad_begin, int64_t pad_end, int64_t output_padding) {
  return (input - 1) * stride - pad_begin - pad_end + dilation * (kernel - 1) + output_padding + 1;
}

Shape resolve_reshape_target(const Shape& input, const Shape& target, bool zero_copies) {
  const auto fail = [&](const std::string& why) { throw GraphError("cannot reshape " + to_string(input) + " to " + to_string(target) + ": " + why); };
  Shape out = target;
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && zero_copies) {
      if (i >= input.size()) fail("target dimension " + std::to_string(i) + " copies a missing input dimension");
      out[i] = input[i];
    }
    if (out[i] == -1) {
      if (inferred) fail("more than one -1");
      inferred = i;
    } else if (out[i] < 0) {
      fail("negative extent " + std::to_string(out[i]));
    } else if (__builtin_mul_overflow(known, out[i], &known)) {
      fail("more elements than 64 bits can count");
    }
  }
  const int64_t total = element_count(input);
  if (inferred) {
    if (known == 0 || total % known != 0) fail(std::to_string(total) + " elements do not divide into the known extents");
    out[*inferred] = total / known;
  }
  if (element_count(out) != total) fail(std::to_string(total) + " elements, the target holds " + std::to_string(element_count(out)));
  return out;
}

// Written so that no intermediate exceeds end - start: a step from a file may be near 2^63.
int64_t slice_output_extent(int64_t start, int64_t end, int64_t step) { return start >= end ? 0 : (end - start - 1) / step + 1; }

TensorType infer_op_type(const std::string& node_name, const Op& node_op, const std::vector<TypedOperand>& inputs) {
  const Checker check(node_name, node_op, inputs);
  for (size_t i = 0; i < inputs.size(); ++i) check.expect_f32(i);
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
                        [&](const Sub&) { return infer_broadcast(check); },
                        [&](const Div&) { return infer_broadcast(check); },
                        [&](const Max&) { return infer_broadcast(check); },
                        [&](const Min&) { return infer_broadcast(check); },
                        [&](const PRelu&) { return infer_prelu(check); },
                        [&](const ReduceMean& op) { return infer_reduce_mean(check, op); },
                        [&](const ConvTranspose2d& op) { return infer_conv_transpose(check, op); },
                        [&](const Lrn& op) { return infer_lrn(check, op); },
                        [&](const Resize& op) { return infer_resize(check, op); },
                        [&](const Slice& op) { return infer_slice(check, op); },
                        [&](const ChannelShuffle& op) { return infer_channel_shuffle(check, op); },
                        [&](const LayerNorm& op) { return infer_layer_norm(check, op); },
                        [&](const BatchMatMul&) { return infer_batch_matmul(check); },
                        // Shape-preserving unary operators, one by one so that a new operator
                        // fails to compile here rather than pass as one of them.
                        [&](const Relu&) { return infer_unary(check); },
                        [&](const Clip&) { return infer_unary(check); },
                        [&](const Sigmoid&) { return infer_unary(check); },
                        [&](const Tanh&) { return infer_unary(check); },
                        [&](const HardSigmoid&) { return infer_unary(check); },
                        [&](const HardSwish&) { return infer_unary(check); },
                        [&](const Silu&) { return infer_unary(check); },
                        [&](const Gelu&) { return infer_unary(check); },
                        [&](const LeakyRelu&) { return infer_unary(check); },
                        [&](const Dropout&) { return infer_unary(check); },
                        [&](const Identity&) { return infer_unary(check); },
                    },
                    node_op);
}

}  // namespace layoutopt::graph
