#include "layoutopt/graph/shape_inference.h"
#include "layoutopt/graph/workloads.h"

#include <doctest/doctest.h>

#include "graph_fixtures.h"
#include "layoutopt/graph/error.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;

namespace {

Shape output_of(Graph& g, Op op, std::vector<ValueId> inputs) {
  return g.value(g.add_node("", std::move(op), std::move(inputs))).type.shape;
}

}  // namespace

TEST_CASE("conv2d output extents follow stride, padding and dilation") {
  Graph g;
  const ValueId x = g.add_input("x", {{2, 6, 15, 16}});
  const ValueId w = parameter(g, "w", {12, 3, 3, 3}, ParameterRole::conv_weight);
  Conv2d conv = conv_attrs(3, 2, 1, 2);
  CHECK(output_of(g, conv, {x, w}) == Shape{2, 12, 8, 8});
  conv.dilation = {2, 2};
  CHECK(output_of(g, conv, {x, w}) == Shape{2, 12, 7, 7});
  conv.pads = {0, 1, 2, 3};
  // H: (15 + 0 + 2 - 4 - 1)/2 + 1 = 7, W: (16 + 1 + 3 - 4 - 1)/2 + 1 = 8
  CHECK(output_of(g, conv, {x, w}) == Shape{2, 12, 7, 8});
}

TEST_CASE("conv2d errors name the node, the input and the expectation") {
  Graph g;
  const ValueId x = g.add_input("x", {{1, 4, 8, 8}});
  const ValueId w = parameter(g, "w", {8, 3, 3, 3}, ParameterRole::conv_weight);
  CHECK_THROWS_WITH_AS(g.add_node("c", conv_attrs(3, 1, 1), {x, w}),
                       "node 'c' (conv2d): input 1 'w' has shape [8, 3, 3, 3], expected [8, 4, 3, 3] "
                       "(weight is [out, in/groups, kernel_h, kernel_w])",
                       GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("c", conv_attrs(3, 1, 1, 3), {x, w}),
                       "node 'c' (conv2d): input channels 4 are not divisible by groups 3", GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("c", conv_attrs(3, 1, 1), {x}), "node 'c' (conv2d): expected 2 inputs, found 1",
                       GraphError);
  const ValueId big = parameter(g, "big", {8, 4, 11, 11}, ParameterRole::conv_weight);
  CHECK_THROWS_WITH_AS(g.add_node("c", conv_attrs(11, 1, 0), {x, big}), doctest::Contains("does not fit input"),
                       GraphError);
}

TEST_CASE("window attributes and extents past int64 arithmetic are refused before it (found by fuzzing)") {
  Graph g;
  const ValueId x = g.add_input("x", {{1, 4, 8, 8}});
  // Pads of 4.8e18 and 6.9e18 summed past int64 in Pad's output extent.
  CHECK_THROWS_WITH_AS(g.add_node("p", Pad{.pads = {4841088124446572551, 0, 6878243895746195055, 0}}, {x}),
                       doctest::Contains("node 'p' (pad): padding above 1048576"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("m", Pool2d{.kernel = {2, 2}, .stride = {int64_t{1} << 40, 1}}, {x}),
                       doctest::Contains("stride must be 1 to 1048576, found 1099511627776x1"), GraphError);
  const ValueId tall = g.add_input("tall", {{1, 1, int64_t{1} << 40, 1}});
  CHECK_THROWS_WITH_AS(g.add_node("q", Pad{.pads = {1, 1, 1, 1}}, {tall}),
                       doctest::Contains("beyond 2147483648 pixels a side"), GraphError);
  const ValueId half = g.add_input("half", {{int64_t{1} << 62}});
  CHECK_THROWS_WITH_AS(g.add_node("c", Concat{.axis = 0}, {half, half}),
                       doctest::Contains("the joined extent does not fit 64 bits"), GraphError);
}

TEST_CASE("pooling with ceil mode follows PyTorch's rule") {
  Graph g;
  const ValueId x = g.add_input("x", {{1, 3, 112, 112}});
  const Pool2d pool{.kind = PoolKind::max, .kernel = {3, 3}, .stride = {2, 2}, .ceil_mode = true};
  CHECK(output_of(g, pool, {x}) == Shape{1, 3, 56, 56});  // squeezenet's first pool
  Pool2d floor_pool = pool;
  floor_pool.ceil_mode = false;
  CHECK(output_of(g, floor_pool, {x}) == Shape{1, 3, 55, 55});
  // The last window may not start in the end padding: 5 wide, k2 s2 p1 -> 3, not 4.
  CHECK(window_output_extent(5, 2, 2, 1, 1, 1, true) == 3);
}

TEST_CASE("broadcasting, concat, flatten, reshape and transpose") {
  Graph g;
  const ValueId a = g.add_input("a", {{1, 16, 7, 7}});
  const ValueId s = g.add_input("s", {{1, 16, 1, 1}});
  const ValueId b = g.add_input("b", {{1, 8, 7, 7}});
  CHECK(output_of(g, Mul{}, {a, s}) == Shape{1, 16, 7, 7});
  CHECK(output_of(g, Concat{.axis = 1}, {a, b, a}) == Shape{1, 40, 7, 7});
  CHECK(output_of(g, Concat{.axis = -3}, {a, b}) == Shape{1, 24, 7, 7});
  CHECK(output_of(g, Flatten{.axis = 1}, {a}) == Shape{1, 784});
  CHECK(output_of(g, Reshape{.shape = {0, -1}}, {a}) == Shape{1, 784});
  CHECK(output_of(g, Reshape{.shape = {1, -1, 49}}, {a}) == Shape{1, 16, 49});
  CHECK(output_of(g, Transpose{.perm = {0, 2, 3, 1}}, {a}) == Shape{1, 7, 7, 16});
  CHECK(output_of(g, Pad{.pads = {1, 2, 3, 4}}, {a}) == Shape{1, 16, 11, 13});

  CHECK_THROWS_WITH_AS(g.add_node("m", Mul{}, {a, b}), doctest::Contains("do not broadcast"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("c", Concat{.axis = 2}, {a, b}),
                       doctest::Contains("concat inputs agree on every axis but 2"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("r", Reshape{.shape = {5, -1}}, {a}), doctest::Contains("cannot reshape"),
                       GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("t", Transpose{.perm = {0, 1, 1, 2}}, {a}),
                       doctest::Contains("does not fit rank 4"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("f", Softmax{.axis = 4}, {a}), doctest::Contains("axis 4 is out of range"),
                       GraphError);
}

TEST_CASE("dense and batch norm check their parameters") {
  Graph g;
  const ValueId x = g.add_input("x", {{2, 10}});
  const ValueId w = parameter(g, "w", {5, 10}, ParameterRole::dense_weight);
  const ValueId bad_bias = parameter(g, "b", {4}, ParameterRole::bias);
  CHECK(output_of(g, Dense{}, {x, w}) == Shape{2, 5});
  CHECK_THROWS_WITH_AS(g.add_node("fc", Dense{.epilogue = {.bias = true}}, {x, w, bad_bias}),
                       doctest::Contains("input 2 'b' has shape [4], expected [5]"), GraphError);
  const ValueId img = g.add_input("img", {{1, 3, 4, 4}});
  CHECK_THROWS_WITH_AS(g.add_node("bn", BatchNorm{}, {img, w, w, w, w}), doctest::Contains("one value per channel"),
                       GraphError);
}

TEST_CASE("infer_shapes recomputes stored types after an edit") {
  Graph g;
  const ValueId x = g.add_input("x", {{1, 3, 8, 8}});
  const ValueId y = g.add_node("pool", GlobalAvgPool{}, {x});
  g.add_output(y);
  g.value(x).type.shape = {2, 3, 8, 8};
  infer_shapes(g);
  CHECK(g.value(y).type.shape == Shape{2, 3, 1, 1});
}

TEST_CASE("conv_transpose2d output extents: (in - 1) * stride - pads + dilation * (k - 1) + output_padding + 1") {
  Graph g;
  const ValueId x = g.add_input("x", {{2, 4, 5, 5}});
  const ValueId w = parameter(g, "w", {4, 3, 3, 3}, ParameterRole::conv_weight);  // groups 2: 6 outputs
  const ValueId bias = parameter(g, "b", {6}, ParameterRole::bias);
  // The usual 2x upsampling layer: k3 s2 p1 with output padding 1 doubles 5 to 10.
  const ConvTranspose2d up{.kernel = {3, 3}, .stride = {2, 2}, .pads = {1, 1, 1, 1}, .output_padding = {1, 1},
                           .groups = 2, .bias = true};
  CHECK(output_of(g, up, {x, w, bias}) == Shape{2, 6, 10, 10});
  // Every input element meets one [O/groups, KH, KW] filter: 2*4*5*5 inputs x 3*3*3 taps.
  const ValueId upsampled = g.add_node("upsample", up, {x, w, bias});
  CHECK(mac_count(g, g.node(g.value(upsampled).producer)) == 2 * 4 * 5 * 5 * 3 * 3 * 3);
  // Stride 1, dilation 2, no padding: 5 + 2 * 2 = 9; 3 left pads take 3 columns of 5 + 2.
  CHECK(output_of(g, ConvTranspose2d{.kernel = {3, 3}, .dilation = {2, 2}, .groups = 2}, {x, w}) == Shape{2, 6, 9, 9});
  CHECK(output_of(g, ConvTranspose2d{.kernel = {3, 3}, .pads = {0, 3, 0, 0}, .groups = 2}, {x, w}) ==
        Shape{2, 6, 7, 4});

  CHECK_THROWS_WITH_AS(g.add_node("up", ConvTranspose2d{.kernel = {3, 3}, .groups = 3}, {x, w}),
                       "node 'up' (conv_transpose2d): input channels 4 are not divisible by groups 3", GraphError);
  const ValueId w5 = parameter(g, "w5", {5, 3, 3, 3}, ParameterRole::conv_weight);
  CHECK_THROWS_WITH_AS(g.add_node("up", ConvTranspose2d{.kernel = {3, 3}}, {x, w5}),
                       doctest::Contains("input 1 'w5' has shape [5, 3, 3, 3], expected [4, 3, 3, 3] "
                                         "(weight is [in, out/groups, kernel_h, kernel_w])"),
                       GraphError);
  CHECK_THROWS_WITH_AS(
      g.add_node("up", ConvTranspose2d{.kernel = {3, 3}, .output_padding = {1, 0}, .groups = 2}, {x, w}),
      doctest::Contains("output_padding 1x0 must be non-negative and smaller than the stride or the dilation"),
      GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("up", ConvTranspose2d{.kernel = {3, 3}, .groups = 2, .bias = true}, {x, w, w}),
                       doctest::Contains("one value per output channel"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("up", ConvTranspose2d{.kernel = {3, 3}, .pads = {5, 0, 5, 0}, .groups = 2}, {x, w}),
                       doctest::Contains("padding removes the whole output"), GraphError);
}

TEST_CASE("resize, slice and channel shuffle shapes and their errors") {
  Graph g;
  const ValueId x = g.add_input("x", {{1, 8, 4, 4}});
  CHECK(output_of(g, Resize{.size = {8, 6}, .scale_h = 2.0, .scale_w = 1.5}, {x}) == Shape{1, 8, 8, 6});
  const ValueId flat = g.add_input("flat", {{1, 8, 16}});
  CHECK_THROWS_WITH_AS(g.add_node("r", Resize{.size = {8, 8}}, {flat}),
                       "node 'r' (resize): input 0 'flat' has shape [1, 8, 16], expected rank 4", GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("r", Resize{.size = {8, 8}, .scale_h = 0.0}, {x}),
                       doctest::Contains("scales must be positive"), GraphError);

  // Channels 1, 4 and 7 of 8.
  CHECK(output_of(g, Slice{.axis = 1, .start = 1, .end = 8, .step = 3}, {x}) == Shape{1, 3, 4, 4});
  CHECK(output_of(g, Slice{.axis = 3, .start = 0, .end = 2}, {x}) == Shape{1, 8, 4, 2});
  CHECK_THROWS_WITH_AS(g.add_node("s", Slice{.axis = 1, .start = 1, .end = 9}, {x}),
                       doctest::Contains("slice [1, 9) step 1 is not within axis 1 of extent 8"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("s", Slice{.axis = 2, .start = 3, .end = 3}, {x}),
                       doctest::Contains("is not within axis 2"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("s", Slice{.axis = 4, .start = 0, .end = 1}, {x}),
                       doctest::Contains("axis 4 is out of range"), GraphError);

  CHECK(output_of(g, ChannelShuffle{.groups = 4}, {x}) == Shape{1, 8, 4, 4});
  CHECK_THROWS_WITH_AS(g.add_node("cs", ChannelShuffle{.groups = 3}, {x}),
                       "node 'cs' (channel_shuffle): channels 8 are not divisible into 3 groups", GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("cs", ChannelShuffle{.groups = 2}, {flat}), doctest::Contains("expected rank 4"),
                       GraphError);
}

TEST_CASE("reduce mean, prelu, the new binary operators and lrn") {
  Graph g;
  const ValueId x = g.add_input("x", {{2, 8, 4, 3}});
  CHECK(output_of(g, ReduceMean{.axes = {2, 3}}, {x}) == Shape{2, 8, 1, 1});
  CHECK(output_of(g, ReduceMean{.axes = {1, 3}, .keep_dims = false}, {x}) == Shape{2, 4});
  CHECK_THROWS_WITH_AS(g.add_node("m", ReduceMean{.axes = {3, 2}}, {x}),
                       doctest::Contains("axes [3, 2] must be ascending and within [0, 4)"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("m", ReduceMean{.axes = {4}}, {x}), doctest::Contains("within [0, 4)"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("m", ReduceMean{}, {x}), doctest::Contains("no axes to reduce"), GraphError);

  const ValueId per_channel = g.add_input("slope", {{8, 1, 1}});
  const ValueId too_big = g.add_input("big", {{4, 8, 4, 3}});
  CHECK(output_of(g, PRelu{}, {x, per_channel}) == Shape{2, 8, 4, 3});
  // [1, 8, 4, 3] and [2, 8, 4, 3] broadcast, but only by growing x.
  const ValueId single = g.add_input("single", {{1, 8, 4, 3}});
  CHECK_THROWS_WITH_AS(g.add_node("p", PRelu{}, {single, x}),
                       "node 'p' (prelu): slope input 1 'x' of shape [2, 8, 4, 3] does not broadcast to input 0 "
                       "'single' of shape [1, 8, 4, 3]",
                       GraphError);

  const ValueId row = g.add_input("row", {{3}});
  CHECK(output_of(g, Sub{}, {x, row}) == Shape{2, 8, 4, 3});
  CHECK(output_of(g, Div{}, {row, x}) == Shape{2, 8, 4, 3});
  CHECK(output_of(g, Max{}, {per_channel, row}) == Shape{8, 1, 3});
  CHECK_THROWS_WITH_AS(g.add_node("min", Min{}, {x, too_big}), doctest::Contains("do not broadcast (axis 0)"),
                       GraphError);

  CHECK(output_of(g, Lrn{.size = 3}, {x}) == Shape{2, 8, 4, 3});
  CHECK_THROWS_WITH_AS(g.add_node("lrn", Lrn{.size = 0}, {x}), doctest::Contains("size must be positive"), GraphError);
  CHECK_THROWS_WITH_AS(g.add_node("lrn", Lrn{}, {row}), doctest::Contains("expected rank 2 or more (N, C, ...)"),
                       GraphError);
}
