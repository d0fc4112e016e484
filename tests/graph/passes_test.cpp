#include <doctest/doctest.h>

#include <cmath>

#include "graph_fixtures.h"
#include "layoutopt/graph/passes/chain_concats.h"
#include "layoutopt/graph/passes/fold_batch_norm.h"
#include "layoutopt/graph/passes/fold_pads.h"
#include "layoutopt/graph/passes/fuse_epilogues.h"
#include "layoutopt/graph/passes/merge_added_pointwise_convs.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/passes/pool_before_pointwise_conv.h"
#include "layoutopt/graph/passes/recognize_channel_shuffle.h"
#include "layoutopt/graph/passes/recognize_gated_activations.h"
#include "layoutopt/graph/passes/remove_identities.h"
#include "layoutopt/graph/passes/subsample_strided_pointwise_conv.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/validate.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;

namespace {

int count_ops(const Graph& g, const std::string& name) {
  int count = 0;
  for (const Node& node : g.nodes()) count += op_name(node.op) == name;
  return count;
}

// A dense block as torchvision writes it: layer k reads concat(x0, y1, ..., yk), the first
// one a concat of x0 alone; the block's result concatenates everything once more.
Graph torchvision_dense_block(int layers) {
  Graph g("dense_block");
  std::vector<ValueId> features{g.add_input("x0", {{1, 8, 6, 6}})};
  for (int k = 1; k <= layers; ++k) {
    const std::string layer = "layer" + std::to_string(k);
    const ValueId all = g.add_node(layer + ".concat", Concat{}, features);
    features.push_back(conv(g, layer + ".conv", all, 4, 3, 1, 1));
  }
  g.add_output(g.add_node("block.concat", Concat{}, features));
  return g;
}

std::vector<ValueId> inputs_of(const Graph& g, const std::string& node) { return g.node(*g.find_node(node)).inputs; }

ValueId output_of(const Graph& g, const std::string& node) { return g.node(*g.find_node(node)).output; }

}  // namespace

TEST_CASE("identities and dropout disappear and their readers are rewired") {
  Graph g = residual_block();
  CHECK(remove_identities(g) == 1);
  CHECK(count_ops(g, "dropout") == 0);
  const Node& fc = g.node(*g.find_node("fc"));
  CHECK(g.value(fc.inputs[0]).name == "flatten");
  validate(g);
}

TEST_CASE("batch norm folds into the conv's weights and bias exactly") {
  Graph g = residual_block();
  const NodeId conv_id = *g.find_node("conv1");
  const NodeId bn_id = *g.find_node("bn1");
  const auto w = g.value(g.node(conv_id).inputs[1]).weights->values();
  const std::vector<float> w_before(w.begin(), w.end());
  std::vector<std::vector<float>> bn_params;
  for (size_t i = 1; i < 5; ++i) {
    const auto values = g.value(g.node(bn_id).inputs[i]).weights->values();
    bn_params.emplace_back(values.begin(), values.end());
  }

  CHECK(fold_batch_norm(g) == 2);
  CHECK(count_ops(g, "batch_norm") == 0);
  const Node& conv = g.node(*g.find_node("conv1"));
  REQUIRE(std::get<Conv2d>(conv.op).epilogue.bias);
  REQUIRE(conv.inputs.size() == 3);
  const auto folded_w = g.value(conv.inputs[1]).weights->values();
  const auto folded_b = g.value(conv.inputs[2]).weights->values();
  const size_t per_channel = 8 * 9;
  for (size_t c = 0; c < 8; ++c) {
    const float s = bn_params[0][c] / std::sqrt(bn_params[3][c] + 1e-5f);
    CHECK(folded_w[c * per_channel + 5] == doctest::Approx(w_before[c * per_channel + 5] * s));
    CHECK(folded_b[c] == doctest::Approx(-bn_params[2][c] * s + bn_params[1][c]));
  }
  // The batch-norm parameters are gone; the folded ones replace the conv's.
  CHECK_FALSE(g.find_value("bn1.running_var").has_value());
  CHECK_FALSE(g.find_value("conv1.weight").has_value());
  validate(g);
}

TEST_CASE("batch norm after a conv with two readers is left alone") {
  Graph g("shared");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId c = conv(g, "conv", x, 4, 1, 1, 0);
  const ValueId bn = batch_norm(g, "bn", c);
  g.add_output(bn);
  g.add_output(g.add_node("side", Relu{}, {c}));
  CHECK(fold_batch_norm(g) == 0);
  CHECK(count_ops(g, "batch_norm") == 1);
}

TEST_CASE("an average pool moves before the 1x1 conv it alone reads, and nowhere else") {
  Graph g = pooled_projections();
  const ValueId x = g.inputs()[0];
  const ValueId transition_output = output_of(g, "t_pool");
  CHECK(pool_before_pointwise_convs(g) == 1);
  // Each name stays with its operator; the pool now reads x, the conv the pooled image.
  const Node& pool = g.node(*g.find_node("t_pool"));
  const Node& conv = g.node(*g.find_node("t_conv"));
  REQUIRE(std::holds_alternative<Pool2d>(pool.op));
  REQUIRE(std::holds_alternative<Conv2d>(conv.op));
  CHECK(pool.inputs == std::vector<ValueId>{x});
  CHECK(g.value(pool.output).type.shape == Shape{1, 8, 4, 4});
  CHECK(conv.inputs.size() == 3);
  CHECK(conv.inputs[0] == pool.output);
  CHECK(conv.output == transition_output);  // what later nodes read keeps its id and type
  CHECK(g.value(conv.output).type.shape == Shape{1, 4, 4, 4});
  CHECK(*g.find_node("t_pool") < *g.find_node("t_conv"));  // still in topological order
  for (const char* kept : {"relu_conv", "k3", "padded", "same", "max", "shared"}) {
    CAPTURE(kept);
    CHECK(std::holds_alternative<Conv2d>(g.node(*g.find_node(kept)).op));
    CHECK(inputs_of(g, kept)[0] == x);
  }
  validate(g);
  CHECK(prepare_for_inference(g).pools_moved_before_convs == 0);  // nothing left to move
}

TEST_CASE("a strided 1x1 conv reads a subsampled copy of its input at unit stride") {
  Graph g = strided_projections();
  const ValueId x = g.inputs()[0];
  const Shape proj_shape = g.value(output_of(g, "proj")).type.shape;
  CHECK(subsample_before_strided_pointwise_convs(g) == 2);
  // Not a structured binding: clang 14 (the sanitized build) cannot capture one in CAPTURE.
  for (const auto& split : {std::pair{"proj", Hw{2, 2}}, std::pair{"tall", Hw{2, 1}}}) {
    const std::string name = split.first;
    const Hw stride = split.second;
    CAPTURE(name);
    const NodeId conv_id = *g.find_node(name);
    const auto& conv = std::get<Conv2d>(g.node(conv_id).op);
    CHECK(conv.stride == Hw{1, 1});
    const NodeId pool_id = g.value(inputs_of(g, name)[0]).producer;
    REQUIRE(pool_id != kNoProducer);
    const auto& pool = std::get<Pool2d>(g.node(pool_id).op);
    CHECK(pool.kind == PoolKind::avg);
    CHECK(pool.kernel == Hw{1, 1});
    CHECK(pool.stride == stride);
    CHECK(inputs_of(g, g.node(pool_id).name)[0] == x);
    CHECK(pool_id + 1 == conv_id);  // inserted just before its reader: still topological
  }
  CHECK(g.value(output_of(g, "proj")).type.shape == proj_shape);
  CHECK(g.value(inputs_of(g, "proj")[0]).type.shape == Shape{1, 8, 4, 4});
  CHECK(g.node(*g.find_node("proj_relu")).inputs[0] == output_of(g, "proj"));
  for (const char* kept : {"padded", "k3", "unit"}) {
    CAPTURE(kept);
    CHECK(inputs_of(g, kept)[0] == x);
  }
  validate(g);
  CHECK(subsample_before_strided_pointwise_convs(g) == 0);  // nothing strided is left
}

TEST_CASE("a sum of two plain 1x1 convs becomes one 1x1 conv over their concatenated inputs") {
  Graph g = projection_block();
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.pointwise_sums_merged == 1);
  CHECK(report.strided_convs_subsampled == 1);
  CHECK_FALSE(g.find_node("downsample").has_value());
  const Node& merged = g.node(*g.find_node("conv3"));
  CHECK(std::get<Conv2d>(merged.op).epilogue == Epilogue{.bias = true, .activation = Activation::relu});
  CHECK(g.value(merged.inputs[1]).type.shape == Shape{32, 8 + 16, 1, 1});
  CHECK(g.value(merged.output).type.shape == Shape{1, 32, 4, 4});
  const NodeId concat_id = g.value(merged.inputs[0]).producer;
  REQUIRE(concat_id != kNoProducer);
  CHECK(std::holds_alternative<Concat>(g.node(concat_id).op));
  CHECK(concat_id + 1 == *g.find_node("conv3"));  // right before its reader: still topological
  const std::vector<ValueId> joined = g.node(concat_id).inputs;
  REQUIRE(joined.size() == 2);
  CHECK(joined[0] == output_of(g, "conv2"));
  const NodeId subsample = g.value(joined[1]).producer;
  REQUIRE(subsample != kNoProducer);
  CHECK(std::holds_alternative<Pool2d>(g.node(subsample).op));
  CHECK(g.node(subsample).inputs[0] == output_of(g, "stem"));
  CHECK(g.outputs()[0] == merged.output);
  // A 3x3 term, a term the graph also outputs and a term of the graph input stay apart.
  for (const char* kept : {"k3", "k3_other", "shared", "shared_other", "input_term", "input_other"}) {
    CAPTURE(kept);
    CHECK(g.find_node(kept).has_value());
  }
  CHECK(merge_added_pointwise_convs(g) == 0);  // the sums left have fused as residuals
}

TEST_CASE("epilogues fuse relu, the residual add and the relu after it") {
  Graph g = residual_block();
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.identities_removed == 1);
  CHECK(report.batch_norms_folded == 2);
  CHECK(report.epilogue_nodes_fused == 3);  // relu1, add, relu2
  CHECK(count_ops(g, "relu") == 0);
  CHECK(count_ops(g, "add") == 0);
  const auto& conv1 = std::get<Conv2d>(g.node(*g.find_node("conv1")).op);
  CHECK(conv1.epilogue == Epilogue{.bias = true, .activation = Activation::relu});
  const Node& conv2 = g.node(*g.find_node("conv2"));
  CHECK(std::get<Conv2d>(conv2.op).epilogue ==
        Epilogue{.bias = true, .residual = true, .post_activation = Activation::relu});
  CHECK(g.value(conv2.inputs[3]).name == "data");
  CHECK(g.nodes().size() == 5);  // conv1, conv2, pool, flatten, fc
  CHECK(mac_count(g) == 2 * (8 * 10 * 10) * (8 * 9) + 4 * 8);
}

TEST_CASE("fusion keeps values other nodes or the graph still need") {
  Graph g("needed");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId c = conv(g, "conv", x, 4, 1, 1, 0);
  const ValueId r = g.add_node("relu", Relu{}, {c});
  const ValueId six = g.add_node("relu6", Clip{0.0f, 6.0f}, {x});
  g.add_output(r);
  g.add_output(c);  // the raw conv output is a graph output: relu must stay separate
  g.add_output(six);
  CHECK(fuse_epilogues(g) == 0);
  CHECK(count_ops(g, "relu") == 1);
}

TEST_CASE("a batch norm after a concat keeps its node and takes the relu after it") {
  Graph g("pre_activation");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId y = conv(g, "conv", x, 4, 1, 1, 0);
  const ValueId both = g.add_node("concat", Concat{}, {x, y});
  const ValueId bn = batch_norm(g, "bn", both);
  const ValueId r = g.add_node("relu", Relu{}, {bn});
  g.add_output(conv(g, "next", r, 4, 1, 1, 0));
  Graph prepared = g;
  CHECK(fold_batch_norm(g) == 0);  // a concat, not a conv, produces its input
  CHECK(fuse_epilogues(g) == 1);
  CHECK(count_ops(g, "relu") == 0);
  const Node& fused = g.node(*g.find_node("bn"));
  CHECK(std::get<BatchNorm>(fused.op).activation == Activation::relu);
  CHECK(inputs_of(g, "next")[0] == fused.output);
  validate(g);
  // Then the whole pipeline moves it into the 1x1 conv that reads it (fuse_input_prologues).
  CHECK(prepare_for_inference(prepared).input_prologues_fused == 1);
  CHECK(count_ops(prepared, "batch_norm") == 0);
  CHECK(std::get<Conv2d>(prepared.node(*prepared.find_node("next")).op).prologue);
}

TEST_CASE("a batch norm whose result is also a graph output keeps its relu apart") {
  Graph g("shared_bn");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId bn = batch_norm(g, "bn", x);
  g.add_output(bn);
  g.add_output(g.add_node("relu", Relu{}, {bn}));
  CHECK(fuse_epilogues(g) == 0);
  CHECK(std::get<BatchNorm>(g.node(*g.find_node("bn")).op).activation == Activation::none);
}

TEST_CASE("relu6 is recognised as an activation, other clips are not") {
  for (const auto& [clip, fused] : {std::pair{Clip{0.0f, 6.0f}, true}, std::pair{Clip{-1.0f, 1.0f}, false}}) {
    Graph g("clip");
    const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
    const ValueId c = conv(g, "conv", x, 4, 1, 1, 0);
    g.add_output(g.add_node("clip", clip, {c}));
    CHECK(fuse_epilogues(g) == (fused ? 1 : 0));
    if (fused)
      CHECK(std::get<Conv2d>(g.node(0).op).epilogue.activation == Activation::relu6);
  }
}

TEST_CASE("a concat of one tensor is removed like an identity") {
  Graph g = torchvision_dense_block(2);
  CHECK(remove_identities(g) == 1);
  CHECK_FALSE(g.find_node("layer1.concat").has_value());
  CHECK(inputs_of(g, "layer1.conv")[0] == g.inputs()[0]);
  validate(g);
}

TEST_CASE("a pad of zero width is removed like an identity, a real pad stays") {
  Graph g("pads");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId nothing = g.add_node("pad0", Pad{}, {x});
  const ValueId real = g.add_node("pad1", Pad{Pads2d{0, 1, 0, 1}, 0.0F}, {nothing});
  g.add_output(g.add_node("relu", Relu{}, {real}));
  CHECK(remove_identities(g) == 1);
  CHECK_FALSE(g.find_node("pad0").has_value());
  CHECK(inputs_of(g, "pad1")[0] == x);
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{{1, 4, 6, 8}});
  validate(g);
}

TEST_CASE("zero pads fold into the conv or average pool that reads them alone") {
  Graph g = explicit_pads();
  std::vector<Shape> shapes;
  for (ValueId output : g.outputs()) shapes.push_back(g.value(output).type.shape);
  CHECK(fold_pads(g) == 2);
  CHECK_FALSE(g.find_node("pad_avg").has_value());
  CHECK_FALSE(g.find_node("pad_conv").has_value());
  const ValueId x = g.inputs()[0];
  const auto& avg = std::get<Pool2d>(g.node(*g.find_node("avg")).op);
  CHECK(avg.pads == Pads2d{1, 1, 1, 1});
  CHECK(avg.count_include_pad);
  CHECK(inputs_of(g, "avg")[0] == x);
  CHECK(std::get<Conv2d>(g.node(*g.find_node("conv")).op).pads == Pads2d{1, 2, 3, 2});
  CHECK(inputs_of(g, "conv")[0] == x);
  for (const char* kept : {"pad_ones", "pad_max", "pad_shared"}) CHECK(g.find_node(kept).has_value());
  validate(g);
  for (size_t o = 0; o < shapes.size(); ++o) CHECK(g.value(g.outputs()[o]).type.shape == shapes[o]);
}

TEST_CASE("a pad before a pool that pads or rounds up itself stays") {
  Graph g("pool_pads");
  const ValueId x = g.add_input("x", {{1, 4, 7, 7}});
  const ValueId a = g.add_node("pad_a", Pad{Pads2d{1, 1, 1, 1}, 0.0F}, {x});
  g.add_output(g.add_node("padded", Pool2d{.kind = PoolKind::avg, .kernel = {3, 3}, .stride = {1, 1},
                                           .pads = {1, 1, 1, 1}}, {a}));
  const ValueId b = g.add_node("pad_b", Pad{Pads2d{1, 1, 1, 1}, 0.0F}, {x});
  g.add_output(g.add_node("ceil", Pool2d{.kind = PoolKind::avg, .kernel = {3, 3}, .stride = {2, 2},
                                         .ceil_mode = true}, {b}));
  CHECK(fold_pads(g) == 0);
}

TEST_CASE("re-concatenations are chained onto the previous concat") {
  Graph g = torchvision_dense_block(4);
  const Shape block_shape = g.value(g.outputs()[0]).type.shape;
  (void)remove_identities(g);
  CHECK(chain_concats(g) == 3);  // layer3, layer4 and the block's concat
  const ValueId x0 = g.inputs()[0];
  CHECK(inputs_of(g, "layer2.concat") == std::vector<ValueId>{x0, output_of(g, "layer1.conv")});
  CHECK(inputs_of(g, "layer3.concat") ==
        std::vector<ValueId>{output_of(g, "layer2.concat"), output_of(g, "layer2.conv")});
  CHECK(inputs_of(g, "block.concat") ==
        std::vector<ValueId>{output_of(g, "layer4.concat"), output_of(g, "layer4.conv")});
  validate(g);  // shapes still infer: the chained concats compute the same tensors
  CHECK(g.value(g.outputs()[0]).type.shape == block_shape);
  for (const Node& node : g.nodes()) CHECK(node.inputs.size() <= 2);
  CHECK(chain_concats(g) == 0);  // a fixed point
}

TEST_CASE("concats along another axis or in another order are not chained") {
  Graph g("mixed");
  const ValueId a = g.add_input("a", {{1, 8, 4, 4}});
  const ValueId b = g.add_input("b", {{1, 8, 4, 4}});
  const ValueId c = g.add_input("c", {{1, 8, 4, 4}});
  g.add_output(g.add_node("ab", Concat{}, {a, b}));
  g.add_output(g.add_node("ab_height", Concat{.axis = 2}, {a, b, c}));
  g.add_output(g.add_node("ba", Concat{}, {b, a, c}));
  g.add_output(g.add_node("abc", Concat{}, {a, b, c}));
  CHECK(chain_concats(g) == 1);
  CHECK(inputs_of(g, "ab_height") == std::vector<ValueId>{a, b, c});
  CHECK(inputs_of(g, "ba") == std::vector<ValueId>{b, a, c});
  CHECK(inputs_of(g, "abc") == std::vector<ValueId>{output_of(g, "ab"), c});
  validate(g);
}

namespace {

// ShuffleNet's channel shuffle as its ONNX export writes it, between a conv and a relu;
// `perm` is the transpose's permutation.
Graph exported_shuffle(std::vector<int64_t> perm = {0, 2, 1, 3, 4}) {
  Graph g("shuffle");
  const ValueId x = conv(g, "conv", g.add_input("x", {{2, 12, 5, 5}}), 12, 1, 1, 0);
  const ValueId split = g.add_node("split", Reshape{.shape = {2, 3, 4, 5, 5}}, {x});
  const ValueId swapped = g.add_node("swap", Transpose{.perm = std::move(perm)}, {split});
  const ValueId merged = g.add_node("merge", Reshape{.shape = {2, 12, 5, 5}}, {swapped});
  g.add_output(g.add_node("relu", Relu{}, {merged}));
  return g;
}

}  // namespace

TEST_CASE("reshape, transpose (0, 2, 1, 3, 4), reshape becomes one channel shuffle") {
  Graph g = exported_shuffle();
  CHECK(recognize_channel_shuffle(g) == 1);
  validate(g);
  CHECK(g.nodes().size() == 3);  // conv, shuffle, relu
  const NodeId shuffle = *g.find_node("merge");
  CHECK(std::get<ChannelShuffle>(g.node(shuffle).op) == ChannelShuffle{.groups = 3});
  CHECK(inputs_of(g, "merge") == std::vector<ValueId>{*g.find_value("conv")});
  CHECK(inputs_of(g, "relu") == std::vector<ValueId>{g.node(shuffle).output});
  CHECK(g.value(g.node(shuffle).output).name == "merge");
  CHECK(!g.find_value("split"));
  CHECK(!g.find_value("swap"));
}

TEST_CASE("prepare_for_inference recognizes channel shuffles and reports them") {
  Graph g = exported_shuffle();
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.channel_shuffles_recognized == 1);
  CHECK(report.summary().find("recognized 1 channel shuffles") != std::string::npos);
  CHECK(count_ops(g, "channel_shuffle") == 1);
}

TEST_CASE("a shuffle chain whose intermediate is read elsewhere, or with another permutation, stays") {
  Graph other_perm = exported_shuffle({0, 1, 2, 4, 3});
  CHECK(recognize_channel_shuffle(other_perm) == 0);
  CHECK(count_ops(other_perm, "transpose") == 1);

  Graph split_read = exported_shuffle();
  split_read.add_output(split_read.add_node("split_relu", Relu{}, {*split_read.find_value("split")}));
  CHECK(recognize_channel_shuffle(split_read) == 0);

  Graph swap_output = exported_shuffle();
  swap_output.add_output(*swap_output.find_value("swap"));  // the graph's user sees the 5-D tensor
  CHECK(recognize_channel_shuffle(swap_output) == 0);
  CHECK(count_ops(swap_output, "reshape") == 2);
}

TEST_CASE("a 5-D reshape that does not split the channels is not a shuffle") {
  Graph g("split_width");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId split = g.add_node("split", Reshape{.shape = {1, 4, 6, 2, 3}}, {x});
  const ValueId swapped = g.add_node("swap", Transpose{.perm = {0, 2, 1, 3, 4}}, {split});
  g.add_output(g.add_node("merge", Reshape{.shape = {1, 4, 6, 6}}, {swapped}));
  CHECK(recognize_channel_shuffle(g) == 0);
}

TEST_CASE("hard swish and PyTorch's hard sigmoid fuse into a conv like relu6; other hard sigmoids do not") {
  const std::vector<std::pair<Op, std::optional<Activation>>> cases = {
      {HardSwish{}, Activation::hard_swish},
      {HardSigmoid{.alpha = 1.0f / 6.0f, .beta = 0.5f}, Activation::hard_sigmoid},
      {HardSigmoid{.alpha = 0.2f, .beta = 0.5f}, std::nullopt},  // ONNX's default
      {LeakyRelu{}, std::nullopt}};
  for (const auto& [op, fused] : cases) {
    const std::string name = op_name(op);  // a copy: clang 14 cannot capture a structured binding
    CAPTURE(name);
    Graph g("hard");
    const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
    const ValueId c = conv(g, "conv", x, 4, 1, 1, 0);
    g.add_output(g.add_node("act", op, {c}));
    CHECK(fuse_epilogues(g) == (fused ? 1 : 0));
    CHECK(std::get<Conv2d>(g.node(0).op).epilogue.activation == fused.value_or(Activation::none));
    validate(g);
  }
}

TEST_CASE("hard swish after a residual add fuses as the post-residual activation") {
  Graph g("hard_residual");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId sum = g.add_node("add", Add{}, {conv(g, "conv", x, 4, 3, 1, 1), x});
  g.add_output(g.add_node("act", HardSwish{}, {sum}));
  CHECK(fuse_epilogues(g) == 2);
  CHECK(std::get<Conv2d>(g.node(0).op).epilogue ==
        Epilogue{.bias = false, .residual = true, .post_activation = Activation::hard_swish});
}

namespace {

// conv -> gate -> Mul(conv, gate) (or Mul(gate, conv)), as PyTorch exports SiLU and, below
// opset 14, hard swish; the Mul is the graph output "act".
Graph exported_gated_activation(const Op& gate, bool gate_first = false) {
  Graph g("gated");
  const ValueId x = g.add_input("x", {{1, 4, 6, 6}});
  const ValueId c = conv(g, "conv", x, 4, 1, 1, 0);
  const ValueId gated = g.add_node("gate", gate, {c});
  g.add_output(g.add_node("act", Mul{}, gate_first ? std::vector{gated, c} : std::vector{c, gated}));
  return g;
}

}  // namespace

TEST_CASE("x * sigmoid(x) becomes one silu node in either operand order, which then fuses into the conv") {
  for (const bool gate_first : {false, true}) {
    CAPTURE(gate_first);
    Graph g = exported_gated_activation(Sigmoid{}, gate_first);
    CHECK(recognize_gated_activations(g) == 1);
    CHECK(count_ops(g, "sigmoid") == 0);
    CHECK(count_ops(g, "mul") == 0);
    const Node& act = g.node(*g.find_node("act"));
    CHECK(std::holds_alternative<Silu>(act.op));
    CHECK(act.inputs == std::vector{*g.find_value("conv")});
    CHECK(g.outputs() == std::vector{act.output});
    validate(g);
    CHECK(fuse_epilogues(g) == 1);
    CHECK(std::get<Conv2d>(g.node(0).op).epilogue.activation == Activation::silu);
  }
}

TEST_CASE("x * hard_sigmoid(x) becomes hard swish with PyTorch's coefficients only") {
  Graph pytorch = exported_gated_activation(HardSigmoid{.alpha = 1.0f / 6.0f, .beta = 0.5f}, true);
  CHECK(recognize_gated_activations(pytorch) == 1);
  CHECK(std::holds_alternative<HardSwish>(pytorch.node(*pytorch.find_node("act")).op));
  CHECK(count_ops(pytorch, "hard_sigmoid") == 0);

  Graph onnx_default = exported_gated_activation(HardSigmoid{.alpha = 0.2f, .beta = 0.5f});
  CHECK(recognize_gated_activations(onnx_default) == 0);
  CHECK(count_ops(onnx_default, "mul") == 1);
  CHECK(count_ops(onnx_default, "hard_sigmoid") == 1);
}

TEST_CASE("a gate read elsewhere, a gate that is a graph output, or a gate of another value stays") {
  Graph gate_read = exported_gated_activation(Sigmoid{});
  gate_read.add_output(gate_read.add_node("gate_relu", Relu{}, {*gate_read.find_value("gate")}));
  CHECK(recognize_gated_activations(gate_read) == 0);

  Graph gate_output = exported_gated_activation(Sigmoid{});
  gate_output.add_output(*gate_output.find_value("gate"));  // the graph's user sees the sigmoid
  CHECK(recognize_gated_activations(gate_output) == 0);

  Graph other_operand("gate_of_other");
  const ValueId x = other_operand.add_input("x", {{1, 4, 6, 6}});
  const ValueId c = conv(other_operand, "conv", x, 4, 1, 1, 0);
  const ValueId gate = other_operand.add_node("gate", Sigmoid{}, {c});
  other_operand.add_output(other_operand.add_node("act", Mul{}, {x, gate}));  // x * sigmoid(conv(x))
  CHECK(recognize_gated_activations(other_operand) == 0);

  for (Graph* g : {&gate_read, &gate_output, &other_operand}) {
    CHECK(count_ops(*g, "sigmoid") == 1);
    CHECK(count_ops(*g, "mul") == 1);
    CHECK(count_ops(*g, "silu") == 0);
  }
}

TEST_CASE("prepare_for_inference recognizes gated activations before fusing them, and reports them") {
  Graph g = exported_gated_activation(Sigmoid{});
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.gated_activations_recognized == 1);
  CHECK(report.epilogue_nodes_fused == 1);
  CHECK(report.summary().find("recognized 0 channel shuffles and 1 gated activations") != std::string::npos);
  REQUIRE(g.nodes().size() == 1);
  CHECK(std::get<Conv2d>(g.node(0).op).epilogue.activation == Activation::silu);
}

TEST_CASE("an activation after a reshape of a dense fuses into the dense; the reshape stays") {
  // A transformer MLP as the importer writes it: [1, 5, 8] -> [5, 8] -> dense -> [1, 5, 16] -> gelu.
  Graph g("mlp");
  const ValueId x = g.add_input("x", {{1, 5, 8}});
  const ValueId rows = g.add_node("rows", Reshape{.shape = {-1, 8}}, {x});
  const ValueId w = parameter(g, "fc.weight", {16, 8}, ParameterRole::dense_weight);
  const ValueId fc = g.add_node("fc", Dense{}, {rows, w});
  const ValueId tokens = g.add_node("tokens", Reshape{.shape = {1, 5, 16}}, {fc});
  g.add_output(g.add_node("gelu", Gelu{GeluForm::tanh}, {tokens}));
  CHECK(fuse_epilogues(g) == 1);
  CHECK(count_ops(g, "gelu") == 0);
  CHECK(std::get<Dense>(g.node(*g.find_node("fc")).op).epilogue.activation == Activation::gelu_tanh);
  REQUIRE(g.outputs().size() == 1);
  CHECK(g.outputs()[0] == output_of(g, "tokens"));
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 5, 16});
  CHECK_NOTHROW(validate(g));
}

TEST_CASE("a reshape read twice or kept as a graph output blocks the fusion through it") {
  for (const bool reshape_is_output : {false, true}) {
    CAPTURE(reshape_is_output);
    Graph g("mlp");
    const ValueId x = g.add_input("x", {{5, 8}});
    const ValueId w = parameter(g, "fc.weight", {16, 8}, ParameterRole::dense_weight);
    const ValueId fc = g.add_node("fc", Dense{}, {x, w});
    const ValueId tokens = g.add_node("tokens", Reshape{.shape = {1, 5, 16}}, {fc});
    g.add_output(g.add_node("gelu", Gelu{}, {tokens}));
    if (reshape_is_output)
      g.add_output(tokens);
    else
      g.add_output(g.add_node("relu", Relu{}, {tokens}));
    CHECK(fuse_epilogues(g) == 0);
    CHECK(count_ops(g, "gelu") == 1);
  }
}
