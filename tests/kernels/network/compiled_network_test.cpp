// Compiled networks against the reference executor: whole zoo networks (at small input
// sizes, so the reference stays fast) under random schedules, so every kernel family meets
// layouts chosen independently of its neighbours and the compiler has to insert, share and
// elide transforms. Tolerance: testing::kCompiledNetworkRelative, the largest difference
// relative to the output's largest magnitude (fp32 accumulation over reductions of up to
// ~5,000 terms and Winograd layers, through tens of layers; a wrong tap or a misplaced block
// is off by orders more).

#include "layoutopt/kernels/network/compiled_network.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <string_view>

#include "../../graph/graph_fixtures.h"
#include "../op_check.h"
#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/default_channel_block.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "layoutopt/layout/transform.h"
#include "layoutopt/runtime/fork.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::NetworkSchedule;
using kernels::NodeSchedule;
using kernels::reference::HostTensor;
using layout::Layout;

namespace {

/// A zoo network (seed 3) at `image_size`, prepared for inference (BN folded, epilogues fused).
graph::Graph built_zoo(const std::string& name, int64_t image_size, int64_t batch = 1) {
  return graph::zoo::build(name, {.batch = batch, .seed = 3, .image_size = image_size});
}

graph::Graph prepared_zoo(const std::string& name, int64_t image_size, int64_t batch = 1) {
  graph::Graph g = built_zoo(name, image_size, batch);
  graph::prepare_for_inference(g);
  return g;
}

HostTensor random_input(const graph::Graph& g, unsigned seed) {
  return kernels::testing::random_tensor(g.value(g.inputs()[0]).type.shape, seed, 0.0F, 1.0F);
}

/// Every algorithm of a conv / dense node, the direct one first; none for other nodes.
std::vector<kernels::TunableOp> algorithms(const graph::Graph& g, graph::NodeId id) {
  const graph::Node& node = g.node(id);
  if (std::holds_alternative<graph::Conv2d>(node.op)) return kernels::TunableOp::conv2d_algorithms(kernels::conv2d_desc(g, id));
  if (std::holds_alternative<graph::Dense>(node.op)) return {kernels::TunableOp::dense(kernels::dense_desc(g, id))};
  return {};
}

/// The direct algorithm of a conv / dense node.
std::optional<kernels::TunableOp> tunable(const graph::Graph& g, graph::NodeId id) {
  std::vector<kernels::TunableOp> all = algorithms(g, id);
  if (all.empty()) return std::nullopt;
  return all.front();
}

/// Steps of `network` that run a Winograd kernel. The step's kernel kind names the whole
/// kernel, not its first stage (the input transform), so profiles total it as one algorithm.
std::ptrdiff_t winograd_steps(const kernels::CompiledNetwork& network) {
  return std::count_if(network.steps().begin(), network.steps().end(), [](const kernels::NetworkStep& step) {
    const bool named = step.detail.rfind("layoutopt_winograd_conv2d_", 0) == 0;
    CHECK(named == (step.kernel == "winograd_conv2d"));
    return named;
  });
}

Layout blocked(size_t rank, int64_t block) {
  return Layout::parse((rank == 4 ? std::string("NCHW") : std::string("NC")) + (block == 1 ? "" : std::to_string(block) + "c"));
}

/// 1, 4, 8, 16 or 32, at random among those dividing `channels`.
int64_t random_block(int64_t channels, std::mt19937& rng) {
  std::vector<int64_t> blocks{1};
  for (int64_t b : {4, 8, 16, 32})
    if (channels % b == 0) blocks.push_back(b);
  return blocks[rng() % blocks.size()];
}

/// A schedule with independent random choices: a random algorithm (direct or Winograd where
/// it applies) and config per conv / dense, a random block (1, 4, 8, 16 or 32 where it
/// divides the channels) per pooling / elementwise / concat node, canonical layouts for
/// everything else. `default_configs` instead gives every conv / dense its direct
/// algorithm's default config.
NetworkSchedule random_schedule(const graph::Graph& g, std::mt19937& rng, bool default_configs = false) {
  NetworkSchedule schedule;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const graph::Node& node = g.node(id);
    const std::vector<graph::ValueId> inputs = graph::activation_inputs(g, id);
    const graph::Shape& out = g.value(node.output).type.shape;
    NodeSchedule s;
    if (const std::vector<kernels::TunableOp> all = algorithms(g, id); !all.empty()) {
      const kernels::TunableOp* op = default_configs ? &all.front() : &all[rng() % all.size()];
      const int64_t index = default_configs ? op->default_index()
                                            : static_cast<int64_t>(rng() % static_cast<uint64_t>(op->space().size()));
      const kernels::OpLayouts layouts = op->layouts(index);
      s.knobs = op->knobs(index);
      s.inputs = graph::tuned_input_layouts(g, id, layouts.input, layouts.output);
      s.output = layouts.output;
      // An input scale [N, C, 1, 1] is stored alike in every NCHW[x]c: any such spelling fits.
      const std::vector<graph::InputRole> roles = graph::activation_input_roles(g, id);
      for (size_t i = 0; i < roles.size(); ++i)
        if (roles[i] == graph::InputRole::scale)
          s.inputs[i] = blocked(4, random_block(g.value(inputs[i]).type.shape[1], rng));
    } else {
      const bool flexible = out.size() == 4 && !std::holds_alternative<graph::Flatten>(node.op);
      int64_t channels = out[1];
      for (graph::ValueId v : inputs) channels = std::gcd(channels, g.value(v).type.shape[1]);
      const int64_t block = random_block(flexible ? channels : 1, rng);
      for (graph::ValueId v : inputs) s.inputs.push_back(blocked(g.value(v).type.shape.size(), block));
      s.output = blocked(out.size(), block);
    }
    schedule.nodes.push_back(std::move(s));
  }
  return schedule;
}

/// Two different inputs of a graph and the reference's outputs for each.
struct ReferenceRuns {
  std::vector<std::vector<HostTensor>> inputs, outputs;
};

ReferenceRuns reference_runs(const graph::Graph& g) {
  ReferenceRuns runs;
  for (unsigned seed : {11U, 12U}) {
    runs.inputs.push_back({random_input(g, seed)});
    runs.outputs.push_back(kernels::reference::run_graph(g, runs.inputs.back()));
  }
  return runs;
}

/// Runs `network` on each input in turn and checks its outputs against the reference's. The
/// first run at a thread count forks a team per step; the second shares one team across the
/// kernel steps, and a work item that team skipped would keep the first run's value.
void check_runs(kernels::CompiledNetwork& network, const ReferenceRuns& reference) {
  for (size_t run = 0; run < reference.inputs.size(); ++run) {
    CAPTURE(run);
    const std::vector<HostTensor>& expected = reference.outputs[run];
    const std::vector<HostTensor> actual = network.run(reference.inputs[run]);
    REQUIRE(actual.size() == expected.size());
    for (size_t o = 0; o < actual.size(); ++o) {
      CHECK(actual[o].shape == expected[o].shape);
      CHECK(kernels::reference::max_relative_difference(expected[o], actual[o]) < testing::kCompiledNetworkRelative);
    }
  }
}

/// Compiles `g` with its default schedule and three random ones (from `seed`) and checks
/// each against the reference, with no operator left to the reference fallback.
void check_blocked_schedules(const graph::Graph& g, const ReferenceRuns& reference, unsigned seed) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 4; ++trial) {
    CAPTURE(trial);
    auto network = kernels::CompiledNetwork::compile(
        g, trial == 0 ? kernels::default_network_schedule(g) : random_schedule(g, rng));
    check_runs(network, reference);
    CHECK(network.summary().fallbacks == 0);
  }
}

void check_against_reference(const std::string& name, int64_t image_size, int schedules) {
  graph::Graph g = prepared_zoo(name, image_size);
  // The reference runs the network as built, before the inference passes: their rewrites
  // (folded and moved batch norms, fused epilogues) are checked with the kernels.
  const ReferenceRuns reference = reference_runs(built_zoo(name, image_size));
  std::mt19937 rng(5);
  for (int trial = 0; trial <= schedules; ++trial) {
    CAPTURE(name);
    CAPTURE(trial);
    // Trial 0: the default schedule (one fixed layout policy); then random ones.
    auto network = kernels::CompiledNetwork::compile(
        g, trial == 0 ? kernels::default_network_schedule(g) : random_schedule(g, rng));
    check_runs(network, reference);
    CHECK(network.summary().fallbacks == 0);
    CHECK(network.summary().arena_bytes <= network.summary().tensor_bytes);
  }
}

}  // namespace

TEST_CASE("resnet-18 runs like the reference under random schedules") { check_against_reference("resnet-18", 64, 3); }
TEST_CASE("mobilenet-v2 (depthwise, relu6) runs like the reference") { check_against_reference("mobilenet-v2", 64, 2); }
TEST_CASE("squeezenet-1.1 (concat, ceil-mode pooling) runs like the reference") {
  check_against_reference("squeezenet-1.1", 64, 2);
}
TEST_CASE("densenet-121 (batch norms moved into 1x1 convs, dense concats) runs like the reference") {
  check_against_reference("densenet-121", 32, 1);
}
TEST_CASE("inception-v3 (asymmetric kernels, average pooling) runs like the reference") {
  check_against_reference("inception-v3", 75, 1);
}

TEST_CASE("resnet-18 with every 3x3 stride-1 conv on Winograd (both tile sizes) runs like the reference") {
  graph::Graph g = prepared_zoo("resnet-18", 64);
  std::mt19937 rng(2);
  NetworkSchedule schedule = random_schedule(g, rng, true);
  int64_t winograd = 0;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const std::vector<kernels::TunableOp> all = algorithms(g, static_cast<graph::NodeId>(n));
    const auto found = std::ranges::find(all, kernels::OpFamily::winograd_conv2d, &kernels::TunableOp::family);
    if (found == all.end()) continue;
    const kernels::TunableOp& op = *found;
    auto knobs = op.knobs(op.default_index());
    knobs["tile_m"] = winograd++ % 2 == 0 ? 4 : 2;
    knobs["tile_band"] = 0;  // whole stages: the scratch below is theirs
    const kernels::OpLayouts layouts = op.layouts(*op.index_of(knobs));
    NodeSchedule& s = schedule.nodes[n];
    s.knobs = knobs;
    s.inputs[0] = layouts.input;
    if (s.inputs.size() == 2) s.inputs[1] = layouts.output;  // fused residual
    s.output = layouts.output;
  }
  CHECK(winograd == 13);  // layer1's 4, then 3 per stage (each stage's first conv has stride 2)
  auto network = kernels::CompiledNetwork::compile(g, schedule);
  check_runs(network, reference_runs(g));
  const auto on_winograd = winograd_steps(network);
  CHECK(on_winograd == winograd);
  // One scratch serves every Winograd step: as large as the largest step needs (layer1's
  // 16 x 16 maps under F(2x2): 16 positions x 64 channels x 8 x 8 tiles, 256 cache lines
  // padded to 257, in and out), not the sum over the 13 steps.
  CHECK(network.summary().scratch_bytes == 2 * 16 * 257 * 16 * 4);
}

TEST_CASE("every zoo network runs like the reference with the default schedule") {
  // At a quarter of the native resolution (inception-v3 needs 75 pixels at least) so the
  // reference stays fast; the layers and layouts are the real ones. VGG's classifier needs a
  // 7x7 map, i.e. 224 pixels: vgg-11 and vgg-11-bn run at full size, and their deeper
  // siblings (the same layers, more of them) are left to those two.
  // LAYOUTOPT_TEST_ZOO_SWEEP=reduced (scripts/test-sanitizers.sh sets it) leaves out the
  // VGGs as well: at 224 pixels the reference executor's naive convolutions spend minutes
  // per VGG under ASan, and their layers (3x3 convs, max pools, dense) run in other networks
  // of this sweep too. It also leaves out the deeper siblings of resnet-50 and densenet-121:
  // the same blocks, more of them, so under ASan they add minutes and no coverage.
  const char* sweep = std::getenv("LAYOUTOPT_TEST_ZOO_SWEEP");
  const bool reduced = sweep != nullptr && std::string_view(sweep) == "reduced";
  const std::set<std::string> deeper_siblings{"resnet-101", "resnet-152", "densenet-169", "densenet-201"};
  for (const graph::zoo::ZooEntry& entry : graph::zoo::entries()) {
    CAPTURE(entry.name);
    const bool vgg = entry.family == "vgg";
    if (vgg && (reduced || (entry.name != "vgg-11" && entry.name != "vgg-11-bn"))) continue;
    if (reduced && deeper_siblings.contains(entry.name)) continue;
    const int64_t size = entry.name == "inception-v3" ? 75 : vgg ? 224 : entry.image_size / 4;
    graph::Graph g = prepared_zoo(entry.name, size);
    const std::vector<HostTensor> inputs{random_input(g, 11)};
    const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
    auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
    const std::vector<HostTensor> actual = network.run(inputs);
    REQUIRE(actual.size() == expected.size());
    for (size_t o = 0; o < actual.size(); ++o) CHECK(kernels::reference::max_relative_difference(expected[o], actual[o]) < testing::kCompiledNetworkRelative);
    // Only SSD's heads (NCHW -> NHWC transposes and joins of the 3-D prediction tensors) lack
    // blocked kernels; everything else runs JIT code.
    for (const kernels::NetworkStep& step : network.steps()) {
      if (step.kind != kernels::StepKind::fallback) continue;
      CHECK(entry.name == "ssd-resnet50-512");
      CHECK((step.detail == "reference transpose" || step.detail == "reference concat"));
    }
  }
}

TEST_CASE("inception-v3 with its independent branches run side by side runs like the reference") {
  // Forks wherever plan_forks finds independent steps at equal times (every stretch it can),
  // under random schedules: transforms, Winograd in bands (kernels of units, run alone in
  // their own scratch copy) and whole stages (which the planner keeps out of forks).
  graph::Graph g = prepared_zoo("inception-v3", 75);
  const ReferenceRuns reference = reference_runs(g);
  std::mt19937 rng(7);
  const int previous = omp_get_max_threads();
  omp_set_num_threads(2);
  for (int trial = 0; trial < 3; ++trial) {
    CAPTURE(trial);
    const NetworkSchedule schedule = trial == 0 ? kernels::default_network_schedule(g) : random_schedule(g, rng);
    const auto sequential = kernels::CompiledNetwork::compile(g, schedule);
    const std::vector<double> ms(sequential.steps().size(), 1.0);
    const std::vector<runtime::Fork> forks = runtime::plan_forks(sequential.network().spec(), ms, ms, 2, {1.0, 0.0, 48});
    CHECK(forks.size() >= 10);  // each of the 11 blocks has branches
    auto network = kernels::CompiledNetwork::compile(g, schedule, forks);
    CHECK(network.network().spec().forks == forks);
    check_runs(network, reference);
  }
  omp_set_num_threads(previous);
}

TEST_CASE("forks that do not fit the network are refused") {
  graph::Graph g = prepared_zoo("squeezenet-1.1", 56);
  const NetworkSchedule schedule = kernels::default_network_schedule(g);
  const std::vector<runtime::Fork> past_the_end{{0, 100000, {0, 1}}};
  CHECK_THROWS_AS((void)kernels::CompiledNetwork::compile(g, schedule, past_the_end), kernels::KernelError);
  const std::vector<runtime::Fork> racing{{0, 2, {0, 1}}};  // the first two steps are a chain
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, schedule, racing),
                       doctest::Contains("one writes memory the other touches"), kernels::KernelError);
}

TEST_CASE("the default schedule runs 3x3 stride-1 convs on large enough images by winograd, with no transform") {
  // At 56 pixels (the sweep above runs it, so the kernels are cached) layer1's three 3x3
  // convs see 14x14 maps, 49 tiles of 2x2; layer2's three stride-1 ones 7x7 maps, 16 tiles,
  // where the weights decide (winograd_by_default); layer3's 4x4 maps have 4, too few.
  graph::Graph g = prepared_zoo("resnet-50", 56);
  const auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  kernels::Conv2dDesc layer2;
  layer2.in_channels = layer2.out_channels = 128;
  layer2.in_h = layer2.in_w = 7;
  layer2.kernel_h = layer2.kernel_w = 3;
  layer2.pad_top = layer2.pad_left = layer2.pad_bottom = layer2.pad_right = 1;
  CHECK(winograd_steps(network) == (kernels::winograd_by_default(layer2) ? 6 : 3));
  CHECK(network.summary().transforms == 0);
}

TEST_CASE("resnet-50's projection blocks run as one conv over a concat its inputs are written into") {
  graph::Graph g = prepared_zoo("resnet-50", 56);
  size_t concat_inputs = 0;
  for (const graph::Node& node : g.nodes())
    if (std::holds_alternative<graph::Concat>(node.op)) concat_inputs += node.inputs.size();
  CHECK(concat_inputs == 2 * 4);  // one per stage: conv2's output and the (subsampled) block input
  const auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  CHECK(network.summary().concat_inputs_placed == concat_inputs);
  CHECK(network.summary().transforms == 0);
}

TEST_CASE("densenet's concats copy nothing: their inputs are written in place") {
  graph::Graph g = prepared_zoo("densenet-121", 32);
  size_t concat_inputs = 0;
  for (const graph::Node& node : g.nodes())
    if (std::holds_alternative<graph::Concat>(node.op)) concat_inputs += node.inputs.size();
  const std::vector<HostTensor> inputs{random_input(g, 11)};
  const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
  // The default schedule puts every concat and its inputs in NCHW16c (growth 32): all of
  // them can live in their concat's output, the chained concats nested in the block's last.
  auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  CHECK(network.summary().concat_inputs_placed == concat_inputs);
  CHECK(kernels::reference::max_relative_difference(expected[0], network.run(inputs)[0]) < testing::kCompiledNetworkRelative);
  // At batch 2 an input is not one contiguous run of the output: everything is copied.
  graph::Graph batch2 = prepared_zoo("densenet-121", 32, 2);
  CHECK(kernels::CompiledNetwork::compile(batch2, kernels::default_network_schedule(batch2)).summary().concat_inputs_placed == 0);
}

TEST_CASE("a concat input read twice by its concat, or placed in another concat, keeps its memory") {
  graph::Graph g("concat_cases");
  const graph::ValueId x = g.add_input("x", {{1, 16, 5, 5}});
  const graph::ValueId a = graph::testing::conv(g, "a", x, 16, 1, 1, 0);
  const graph::ValueId b = graph::testing::conv(g, "b", x, 16, 3, 1, 1);
  const graph::ValueId twice = g.add_node("twice", graph::Concat{}, {a, a, b});  // b moves in, a cannot
  // Runs first: x's NCHW16c copy moves in (the graph input itself stays NCHW, where it is),
  // its transform writing straight into the slice, and b. Then "with_input" moves whole into
  // "twice", b on its slice: r2 has read it before "twice" writes a's copies over x's copy.
  const graph::ValueId with_input = g.add_node("with_input", graph::Concat{}, {x, b});
  g.add_output(g.add_node("r1", graph::Relu{}, {twice}));
  g.add_output(g.add_node("r2", graph::Relu{}, {with_input}));
  g.add_output(g.add_node("r3", graph::Relu{}, {a}));  // a and b are still read after the concats
  g.add_output(g.add_node("r4", graph::Relu{}, {b}));
  graph::prepare_for_inference(g);
  const std::vector<HostTensor> inputs{random_input(g, 5)};
  const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
  auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  CHECK(network.summary().concat_inputs_placed == 3);
  const std::vector<HostTensor> actual = network.run(inputs);
  REQUIRE(actual.size() == expected.size());
  for (size_t o = 0; o < actual.size(); ++o)
    CHECK(kernels::reference::max_relative_difference(expected[o], actual[o]) < testing::kCompiledNetworkRelative);
}

TEST_CASE("a tensor wanted in one layout by several readers is transformed once") {
  graph::Graph g = prepared_zoo("resnet-18", 32);
  std::mt19937 rng(1);
  NetworkSchedule schedule = random_schedule(g, rng, true);
  // Every conv reads NCHW: each tensor read by convs needs at most one transform into NCHW.
  size_t conv_tensors = 0;
  std::set<graph::ValueId> read_by_conv;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const auto op = tunable(g, id);
    if (!op) continue;
    auto knobs = schedule.nodes[n].knobs;
    if (op->family() == kernels::OpFamily::dense) knobs["tile_in"] = 1;
    else knobs["tile_ic"] = 1;
    const int64_t index = *op->index_of(knobs);
    schedule.nodes[n].knobs = knobs;
    schedule.nodes[n].inputs[0] = op->layouts(index).input;
    read_by_conv.insert(graph::activation_inputs(g, id)[0]);
  }
  conv_tensors = read_by_conv.size();
  const auto network = kernels::CompiledNetwork::compile(g, schedule);
  size_t into_plain = 0;
  std::set<std::string> tensors;
  for (const kernels::NetworkStep& step : network.steps()) {
    if (step.kind != kernels::StepKind::transform) continue;
    CHECK(tensors.insert(step.name + " " + step.detail).second);  // never the same transform twice
    if (step.detail.find("->NCHW ") != std::string::npos || step.detail.find("->NCHW1c ") != std::string::npos) ++into_plain;
  }
  CHECK(into_plain <= conv_tensors);
  CHECK(into_plain > 0);
}

TEST_CASE("residual adds are computed in place when nothing else reads the operand") {
  graph::Graph g = prepared_zoo("resnet-18", 112);
  std::mt19937 rng(2);
  const auto network = kernels::CompiledNetwork::compile(g, random_schedule(g, rng, true));
  // Every basic block ends in conv + residual add (fused), whose shortcut has no other reader.
  CHECK(network.summary().in_place >= 6);
  // The peak is the stem: input + conv1's output + the pooled tensor (1,154,048 bytes at 112
  // pixels). Later layers reuse that memory instead of owning buffers, after the rest that
  // tensors fitting in a core's L2 take (arena_plan.h), so the arena is a little larger;
  // how much depends on the host's L2 size.
  const int64_t stem = 4 * (3 * 112 * 112 + 64 * 56 * 56 + 64 * 28 * 28);
  CHECK(network.summary().arena_bytes >= stem);
  CHECK(network.summary().arena_bytes < network.summary().tensor_bytes * 2 / 3);
}

TEST_CASE("a conv never writes over a residual it also reads as its input") {
  // y = relu(conv(x) + x) with x an intermediate: x's last reader is the conv, through both
  // its input and its residual, so writing y over x would corrupt the conv's own input.
  graph::Graph g("self-residual");
  const auto input = g.add_input("input", {{1, 16, 12, 12}});
  const auto x = g.add_node("pre", graph::Relu{}, {input});
  const auto w = g.add_parameter("w", {16, 16, 3, 3}, graph::WeightData::seeded({5}, 16 * 16 * 9));
  const auto conv = g.add_node("conv", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {x, w});
  const auto sum = g.add_node("add", graph::Add{}, {conv, x});
  g.add_output(g.add_node("relu", graph::Relu{}, {sum}));
  graph::prepare_for_inference(g);
  REQUIRE(g.nodes().size() == 2);  // pre, conv with the add and relu fused
  const std::vector<HostTensor> inputs{random_input(g, 2)};
  const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
  auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  CHECK(network.summary().in_place == 0);
  CHECK(kernels::reference::max_relative_difference(expected[0], network.run(inputs)[0]) < testing::kCompiledNetworkRelative);
}

TEST_CASE("a conv reducing in passes never writes over its residual") {
  // Its output holds partial sums between passes, which would overwrite the residual before
  // the last pass adds it: the residual (another conv's output, read by nothing else) keeps
  // its memory, and the result matches the reference.
  graph::Graph g("passes-residual");
  const auto input = g.add_input("input", {{1, 64, 6, 6}});
  const auto x = g.add_node("pre", graph::Relu{}, {input});
  const auto w1 = g.add_parameter("w1", {64, 64, 1, 1}, graph::WeightData::seeded({6}, 64 * 64));
  const auto shortcut = g.add_node("shortcut", graph::Conv2d{.kernel = {1, 1}}, {x, w1});
  const auto w2 = g.add_parameter("w2", {64, 64, 1, 1}, graph::WeightData::seeded({7}, 64 * 64));
  const auto conv = g.add_node("conv", graph::Conv2d{.kernel = {1, 1}}, {x, w2});
  g.add_output(g.add_node("relu", graph::Relu{}, {g.add_node("add", graph::Add{}, {conv, shortcut})}));
  graph::prepare_for_inference(g);
  REQUIRE(g.nodes().size() == 3);  // pre, shortcut, conv with the add and relu fused
  const std::vector<HostTensor> inputs{random_input(g, 3)};
  const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
  const auto compiled_with_chunk = [&](int64_t chunk) {
    NetworkSchedule schedule = kernels::default_network_schedule(g);
    REQUIRE(g.node(2).name == "conv");
    schedule.nodes[2].knobs["reduce_chunk"] = chunk;
    return kernels::CompiledNetwork::compile(g, schedule);
  };
  CHECK(compiled_with_chunk(0).summary().in_place == 1);
  auto network = compiled_with_chunk(32);
  CHECK(network.summary().in_place == 0);
  CHECK(kernels::reference::max_relative_difference(expected[0], network.run(inputs)[0]) < testing::kCompiledNetworkRelative);
}

TEST_CASE("runs can be repeated and give the same outputs") {
  graph::Graph g = prepared_zoo("squeezenet-1.1", 64);
  std::mt19937 rng(3);
  auto network = kernels::CompiledNetwork::compile(g, random_schedule(g, rng));
  const std::vector<HostTensor> first = network.run({random_input(g, 1)});
  network.execute();
  network.execute();
  const std::vector<HostTensor> again = network.outputs();
  CHECK(first[0].data == again[0].data);
  const kernels::ProfiledRun profile = network.execute_profiled();
  CHECK(profile.step_ms.size() == network.steps().size());
  REQUIRE(profile.wait_ms.size() == network.steps().size());
  // Kernel steps record how long their threads waited: never below zero (beyond the
  // clocks' disagreement) nor above the step's wall time; transforms record nothing (a
  // concat written in place is skipped and records nothing either).
  size_t recorded = 0;
  for (size_t s = 0; s < profile.wait_ms.size(); ++s) {
    if (network.steps()[s].kind == kernels::StepKind::transform) CHECK(std::isnan(profile.wait_ms[s]));
    if (std::isnan(profile.wait_ms[s])) continue;
    ++recorded;
    CHECK(profile.wait_ms[s] >= -0.01);
    CHECK(profile.wait_ms[s] <= profile.step_ms[s] + 1e-9);
  }
  CHECK(recorded > 0);
  CHECK(network.outputs()[0].data == first[0].data);
}

TEST_CASE("schedules that do not fit the graph are refused naming the node") {
  graph::Graph g = prepared_zoo("resnet-18", 32);
  std::mt19937 rng(4);
  const NetworkSchedule good = random_schedule(g, rng, true);
  const std::string conv = g.node(0).name;

  NetworkSchedule short_one = good;
  short_one.nodes.pop_back();
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, short_one), doctest::Contains("the schedule has"),
                       kernels::KernelError);

  NetworkSchedule bad_knob = good;
  bad_knob.nodes[0].knobs["tile_oc"] = 7;
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, bad_knob),
                       doctest::Contains(("node '" + conv + "' (conv2d): knobs").c_str()), kernels::KernelError);

  NetworkSchedule bad_layout = good;
  bad_layout.nodes[0].output = Layout::nchwc(32);  // the knobs write another block
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, bad_layout),
                       doctest::Contains("but its kernel needs"), kernels::KernelError);

  NetworkSchedule bad_block = good;
  bad_block.nodes[0].inputs[0] = Layout::nchwc(16);  // the image has 3 channels
  CHECK_THROWS_AS((void)kernels::CompiledNetwork::compile(g, bad_block), kernels::KernelError);

  NetworkSchedule missing_input = good;
  missing_input.nodes[0].inputs.clear();
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, missing_input),
                       doctest::Contains("reads 1 activations"), kernels::KernelError);
}

TEST_CASE("inputs of the wrong shape are refused") {
  graph::Graph g = prepared_zoo("squeezenet-1.1", 64);
  std::mt19937 rng(6);
  auto network = kernels::CompiledNetwork::compile(g, random_schedule(g, rng, true));
  CHECK_THROWS_WITH_AS(network.set_inputs({HostTensor({1, 3, 32, 32})}), doctest::Contains("must have shape"),
                       kernels::KernelError);
  CHECK_THROWS_AS(network.set_inputs({}), kernels::KernelError);
}

namespace {

/// A constant of `shape`, uniform in [center - spread, center + spread].
graph::ValueId constant(graph::Graph& g, const std::string& name, graph::Shape shape, float center, float spread) {
  const int64_t count = graph::element_count(shape);
  return g.add_parameter(name, std::move(shape), graph::WeightData::seeded({31 + g.values().size(), center, spread}, count));
}

graph::ValueId conv1x1(graph::Graph& g, const std::string& name, graph::ValueId x, int64_t out) {
  const int64_t in = g.value(x).type.shape[1];
  const graph::ValueId w = constant(g, name + ".weight", {out, in, 1, 1}, 0.0F, 0.3F);
  return g.add_node(name, graph::Conv2d{}, {x, w});
}

/// Every elementwise operator with a blocked kernel on 24 channels, MobileNet-v3 and
/// EfficientNet style: conv -> hard swish, a squeeze-excite branch ending in conv -> hard
/// sigmoid (both fuse), and binary operators whose second operand is same-shaped, an
/// N x C x 1 x 1 activation, a per-channel constant or a scalar, on either side.
graph::Graph elementwise_network(int64_t batch) {
  graph::Graph g("elementwise");
  const graph::ValueId x = g.add_input("x", {{batch, 24, 7, 5}});
  const graph::ValueId w = constant(g, "conv.weight", {24, 24, 3, 3}, 0.0F, 0.2F);
  const auto conv = g.add_node("conv", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {x, w});
  const auto act = g.add_node("hardswish", graph::HardSwish{}, {conv});
  const auto tanh = g.add_node("tanh", graph::Tanh{}, {act});
  const auto gate = g.add_node("hardsigmoid", graph::HardSigmoid{.alpha = 0.2F, .beta = 0.5F}, {tanh});
  const auto leaky = g.add_node("leaky", graph::LeakyRelu{.alpha = 0.1F}, {act});
  const auto diff = g.add_node("sub", graph::Sub{}, {leaky, gate});
  const auto mean = constant(g, "mean", {24, 1, 1}, 0.0F, 0.5F);
  const auto centred = g.add_node("mean_minus", graph::Sub{}, {mean, diff});  // constant on the left
  const auto deviation = constant(g, "std", {1, 24, 1, 1}, 1.5F, 0.5F);
  const auto normal = g.add_node("over_std", graph::Div{}, {centred, deviation});
  const auto one = constant(g, "one", {1}, 1.0F, 0.0F);
  const auto positive = g.add_node("plus_one", graph::Add{}, {gate, one});  // in [1, 2]
  const auto ratio = g.add_node("ratio", graph::Div{}, {constant(g, "numerator", {24, 1, 1}, 0.0F, 1.0F), positive});
  const auto mixed = g.add_node("mixed", graph::Mul{}, {normal, ratio});
  // Squeeze-excite: the gate is N x C x 1 x 1, read on the right and on the left.
  const auto pooled = g.add_node("pool", graph::GlobalAvgPool{}, {mixed});
  const auto squeezed = g.add_node("se_relu", graph::Relu{}, {conv1x1(g, "se_reduce", pooled, 24)});
  const auto excite = g.add_node("se_gate", graph::HardSigmoid{.alpha = 1.0F / 6.0F, .beta = 0.5F},
                                 {conv1x1(g, "se_expand", squeezed, 24)});
  const auto scaled = g.add_node("se_scale", graph::Mul{}, {mixed, excite});
  const auto from_gate = g.add_node("gate_minus", graph::Sub{}, {excite, scaled});
  const auto high = g.add_node("max", graph::Max{}, {from_gate, scaled});
  const auto low = g.add_node("min", graph::Min{}, {high, constant(g, "cap", {1, 1, 1, 1}, 0.5F, 0.0F)});
  const auto slope = constant(g, "slope", {24, 1, 1}, 0.2F, 0.1F);
  g.add_output(g.add_node("prelu", graph::PRelu{}, {low, slope}));
  return g;
}

}  // namespace

TEST_CASE("every elementwise operator runs blocked, fused or not, like the reference of the unfused graph") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    const graph::Graph unfused = elementwise_network(batch);
    graph::Graph g = unfused;
    graph::prepare_for_inference(g);
    // conv -> hard swish, conv -> relu and conv -> PyTorch's hard sigmoid are one kernel each.
    CHECK(g.nodes().size() == unfused.nodes().size() - 3);
    CHECK(std::get<graph::Conv2d>(g.node(*g.find_node("conv")).op).epilogue.activation == graph::Activation::hard_swish);
    CHECK(std::get<graph::Conv2d>(g.node(*g.find_node("se_expand")).op).epilogue.activation ==
          graph::Activation::hard_sigmoid);
    ReferenceRuns reference = reference_runs(unfused);
    check_blocked_schedules(g, reference, 7);
  }
}

TEST_CASE("a constant varying along H and W is expanded in the output's layout: a kernel in any blocking") {
  // x[1, 8, 4, 4] - c[1, 1, 4, 4]: the constant varies along H and W, not per channel.
  graph::Graph g("spatial_constant");
  const graph::ValueId x = g.add_input("x", {{1, 8, 4, 4}});
  const auto y = g.add_node("relu", graph::Relu{}, {x});
  g.add_output(g.add_node("sub", graph::Sub{}, {y, constant(g, "plane", {1, 1, 4, 4}, 0.0F, 1.0F)}));
  std::mt19937 rng(8);
  auto network = kernels::CompiledNetwork::compile(g, random_schedule(g, rng));
  check_runs(network, reference_runs(g));
  CHECK(network.summary().fallbacks == 0);
}

TEST_CASE("a constant broadcast to the output (Swin's attention bias and window mask) is a kernel in canonical order") {
  // scores[4, 3, 5, 5] + bias[3, 5, 5], and at rank 5 + mask[1, 2, 1, 5, 5] in the middle axes.
  graph::Graph g("broadcast_constants");
  const graph::ValueId x = g.add_input("x", {{4, 3, 5, 5}});
  const auto biased = g.add_node("bias", graph::Add{}, {x, constant(g, "table", {3, 5, 5}, -1.0F, 1.0F)});
  const auto windows = g.add_node("split", graph::Reshape{.shape = {2, 2, 3, 5, 5}}, {biased});
  g.add_output(g.add_node("mask", graph::Add{}, {windows, constant(g, "m", {1, 2, 1, 5, 5}, -100.0F, 0.0F)}));
  auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  check_runs(network, reference_runs(g));
  CHECK(network.summary().fallbacks == 0);
}

TEST_CASE("channel shuffles run blocked in every layout, their blocks mixing channels from several") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    // ShuffleNet's pattern: a 1x1 conv, then its channels interleaved across groups.
    graph::Graph g("shuffle");
    const graph::ValueId x = g.add_input("x", {{batch, 16, 6, 5}});
    const auto mixed = g.add_node("relu", graph::Relu{}, {conv1x1(g, "conv", x, 32)});
    const auto two = g.add_node("shuffle2", graph::ChannelShuffle{.groups = 2}, {mixed});
    const auto four = g.add_node("shuffle4", graph::ChannelShuffle{.groups = 4}, {two});
    g.add_output(g.add_node("add", graph::Add{}, {four, mixed}));
    graph::prepare_for_inference(g);
    const ReferenceRuns reference = reference_runs(g);
    check_blocked_schedules(g, reference, 9);
  }
}

namespace {

/// EfficientNet's activations as PyTorch exports them: x * sigmoid(x) on the input (no conv
/// to fuse into, so a standalone silu), after a conv (fuses), x * hard_sigmoid(x) after a
/// conv (opset < 14 hard swish, fuses), and a squeeze-excite gate that multiplies another
/// value (the sigmoid fuses into its conv; the mul, a graph output, stays).
graph::Graph gated_activation_network(int64_t batch) {
  graph::Graph g("gated");
  const graph::ValueId x = g.add_input("x", {{batch, 16, 6, 5}});
  const auto stem = g.add_node("stem_silu", graph::Mul{}, {x, g.add_node("stem_gate", graph::Sigmoid{}, {x})});
  const graph::ValueId w = constant(g, "conv.weight", {24, 16, 3, 3}, 0.0F, 0.3F);
  const auto conv = g.add_node("conv", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {stem, w});
  const auto silu = g.add_node("conv_silu", graph::Mul{}, {g.add_node("conv_gate", graph::Sigmoid{}, {conv}), conv});
  const auto project = conv1x1(g, "project", silu, 24);
  const auto hard_gate = g.add_node("project_gate", graph::HardSigmoid{.alpha = 1.0F / 6.0F, .beta = 0.5F}, {project});
  const auto hard_swish = g.add_node("project_hardswish", graph::Mul{}, {project, hard_gate});
  const auto pooled = g.add_node("pool", graph::GlobalAvgPool{}, {hard_swish});
  const auto excite = g.add_node("se_gate", graph::Sigmoid{}, {conv1x1(g, "se", pooled, 24)});
  g.add_output(g.add_node("se_scale", graph::Mul{}, {hard_swish, excite}));
  return g;
}

}  // namespace

TEST_CASE("x * sigmoid(x) and x * hard_sigmoid(x) run fused into their conv or as one blocked silu") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    const graph::Graph unfused = gated_activation_network(batch);
    graph::Graph g = unfused;
    const graph::PipelineReport report = graph::prepare_for_inference(g);
    CHECK(report.gated_activations_recognized == 3);
    CHECK(report.channel_scales_fused == 0);
    // Three gates recognized away, then the silu and hard swish after a conv and the
    // squeeze-excite sigmoid fused into their convs.
    CHECK(g.nodes().size() == unfused.nodes().size() - 6);
    CHECK(std::holds_alternative<graph::Silu>(g.node(*g.find_node("stem_silu")).op));
    CHECK(std::get<graph::Conv2d>(g.node(*g.find_node("conv")).op).epilogue.activation == graph::Activation::silu);
    CHECK(std::get<graph::Conv2d>(g.node(*g.find_node("project")).op).epilogue.activation ==
          graph::Activation::hard_swish);
    CHECK(std::get<graph::Conv2d>(g.node(*g.find_node("se")).op).epilogue.activation == graph::Activation::sigmoid);
    CHECK(std::holds_alternative<graph::Mul>(g.node(*g.find_node("se_scale")).op));
    const ReferenceRuns reference = reference_runs(unfused);
    check_blocked_schedules(g, reference, 10);
  }
}

TEST_CASE("squeeze-excite's scale runs inside the projection conv, like the reference of the unfused graph") {
  // Sigmoid (EfficientNet) and PyTorch's hard sigmoid (MobileNet-v3) gates, one and two
  // images; random schedules put the scale's producer and the projection in unrelated blocks.
  const std::vector<graph::Op> gates = {graph::Sigmoid{}, graph::HardSigmoid{.alpha = 1.0F / 6.0F, .beta = 0.5F}};
  for (const graph::Op& gate : gates)
    for (const int64_t batch : {1, 2}) {
      CAPTURE(graph::op_name(gate));
      CAPTURE(batch);
      const graph::Graph unfused = graph::testing::squeeze_excite_block({.batch = batch, .gate = gate});
      graph::Graph g = unfused;
      CHECK(graph::prepare_for_inference(g).channel_scales_fused == 1);
      const graph::Node& project = g.node(*g.find_node("project"));
      CHECK(std::get<graph::Conv2d>(project.op).input_scale);
      CHECK(std::get<graph::Conv2d>(project.op).epilogue.residual);
      check_blocked_schedules(g, reference_runs(unfused), 13);
    }
}

namespace {

/// ShuffleNet-v2's unit: a 1x1 conv, its channels split in halves, one half through another
/// 1x1 conv, the halves joined again and shuffled.
graph::Graph split_unit(int64_t batch) {
  graph::Graph g("split");
  const graph::ValueId x = g.add_input("x", {{batch, 16, 6, 5}});
  const auto mixed = g.add_node("relu", graph::Relu{}, {conv1x1(g, "conv", x, 32)});
  const auto left = g.add_node("left", graph::Slice{.axis = 1, .start = 0, .end = 16}, {mixed});
  const auto right = g.add_node("right", graph::Slice{.axis = 1, .start = 16, .end = 32}, {mixed});
  const auto branch = g.add_node("branch_relu", graph::Relu{}, {conv1x1(g, "branch", right, 16)});
  const auto joined = g.add_node("join", graph::Concat{}, {left, branch});
  g.add_output(g.add_node("shuffle", graph::ChannelShuffle{.groups = 2}, {joined}));
  graph::prepare_for_inference(g);
  return g;
}

/// `schedule` with node `name`'s tensors in NCHW[block]c.
void schedule_block(const graph::Graph& g, NetworkSchedule& schedule, const std::string& name, int64_t block) {
  NodeSchedule& s = schedule.nodes[static_cast<size_t>(*g.find_node(name))];
  for (Layout& input : s.inputs) input = blocked(4, block);
  s.output = blocked(4, block);
}

}  // namespace

TEST_CASE("channel splits run blocked, between convs and a concat, like the reference") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    const graph::Graph g = split_unit(batch);
    const ReferenceRuns reference = reference_runs(g);
    std::mt19937 rng(11);
    for (const int64_t block : {4, 8, 16}) {
      CAPTURE(block);
      NetworkSchedule schedule = random_schedule(g, rng, true);
      for (const char* name : {"left", "right", "join"}) schedule_block(g, schedule, name, block);
      auto network = kernels::CompiledNetwork::compile(g, schedule);
      check_runs(network, reference);
      CHECK(network.summary().fallbacks == 0);
    }
  }
}

namespace {

/// Two ShuffleNet-v2 units at its widths (58 and 116 channels per branch): split, a branch of
/// 1x1 convs, concat, shuffle, then the next width.
graph::Graph shufflenet_widths(int64_t batch) {
  graph::Graph g("shufflenet_widths");
  graph::ValueId x = g.add_input("x", {{batch, 24, 6, 5}});
  for (const int64_t width : {58, 116}) {
    const std::string unit = "unit" + std::to_string(width);
    const auto mixed = g.add_node(unit + "_relu", graph::Relu{}, {conv1x1(g, unit + "_conv", x, 2 * width)});
    const auto left = g.add_node(unit + "_left", graph::Slice{.axis = 1, .start = 0, .end = width}, {mixed});
    const auto right = g.add_node(unit + "_right", graph::Slice{.axis = 1, .start = width, .end = 2 * width}, {mixed});
    const auto branch = g.add_node(unit + "_branch_relu", graph::Relu{}, {conv1x1(g, unit + "_branch", right, width)});
    const auto joined = g.add_node(unit + "_join", graph::Concat{}, {left, branch});
    x = g.add_node(unit + "_shuffle", graph::ChannelShuffle{.groups = 2}, {joined});
  }
  g.add_output(x);
  graph::prepare_for_inference(g);
  return g;
}

}  // namespace

TEST_CASE("shufflenet's widths run by default in masked channel blocks, like the reference") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    const graph::Graph g = shufflenet_widths(batch);
    const NetworkSchedule schedule = kernels::default_network_schedule(g);
    // No 8 divides 58 or 116: with AVX-512 the default computes them in blocks of 58 (four
    // vectors, the last masked) rather than plain NCHW, the slices of a shuffled tensor
    // included (with AVX2, even 29 spans four vectors and they stay plain: a conv's NCHW1c is
    // NCHW's memory order).
    const int64_t block = kernels::default_channel_block(58);
    CHECK(block == (kernels::host_info().vector_lanes == 16 ? 58 : 1));
    for (const char* name : {"unit58_left", "unit58_branch", "unit58_shuffle", "unit116_right", "unit116_join"}) {
      const std::string node = name;  // a string, so that a failure prints it
      CAPTURE(node);
      const graph::NodeId id = *g.find_node(name);
      const Layout& output = schedule.nodes[static_cast<size_t>(id)].output;
      CAPTURE(output.str());
      CHECK(layout::same_memory_order(g.value(g.node(id).output).type.shape, output, blocked(4, block)));
    }
    auto network = kernels::CompiledNetwork::compile(g, schedule);
    check_runs(network, reference_runs(g));
    CHECK(network.summary().fallbacks == 0);
  }
}

TEST_CASE("at batch 1 a channel split is a view of its input: the halves copy nothing") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    const graph::Graph g = split_unit(batch);
    const NetworkSchedule schedule = kernels::default_network_schedule(g);
    auto network = kernels::CompiledNetwork::compile(g, schedule);
    check_runs(network, reference_runs(g));
    size_t slice_steps = 0;
    for (const kernels::NetworkStep& step : network.steps())
      if (step.name == "left" || step.name == "right") ++slice_steps;
    // A batch of 2 keeps the halves of each image apart in memory: two copies.
    CHECK(slice_steps == (batch == 1 ? 0 : 2));
    // The branch's conv writes into the concat. Its one step reads the right half where the
    // split tensor would lie if it moved into the concat, so the left half is copied there.
    CHECK(network.summary().concat_inputs_placed == (batch == 1 ? 1 : 0));
  }
}

TEST_CASE("a split tensor moves into the next concat when its other half is read before the concat's inputs are written") {
  // ShuffleNet's unit: the shuffle's output lands in the next concat's memory, its left half
  // on the concat's left slice; the right half's bytes hold the branch's first input until
  // its second conv writes the concat's right slice there.
  for (const int64_t branch_convs : {2, 1}) {
    CAPTURE(branch_convs);
    graph::Graph g("split_then_two_convs");
    const graph::ValueId x = g.add_input("x", {{1, 16, 6, 5}});
    const auto mixed = g.add_node("shuffle", graph::ChannelShuffle{.groups = 2}, {conv1x1(g, "conv", x, 32)});
    const auto left = g.add_node("left", graph::Slice{.axis = 1, .start = 0, .end = 16}, {mixed});
    auto branch = g.add_node("right", graph::Slice{.axis = 1, .start = 16, .end = 32}, {mixed});
    for (int c = 0; c < branch_convs; ++c) branch = conv1x1(g, "branch" + std::to_string(c), branch, 16);
    g.add_output(g.add_node("tail", graph::Relu{}, {g.add_node("join", graph::Concat{}, {left, branch})}));
    graph::prepare_for_inference(g);
    auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
    check_runs(network, reference_runs(g));
    // Both halves placed, and nothing left for the concat to copy; with one branch conv the
    // conv would write over the half it reads, so the left half is copied.
    CHECK(network.summary().concat_inputs_placed == (branch_convs == 2 ? 2 : 1));
  }
}

TEST_CASE("a step does not write in place over a slice that starts inside its storage") {
  // conv(z) + y[:, 8:16]: the residual is a view 8 channels into y's storage. Written over in
  // place, the output would land 8 channels before the residual it still reads. 8 output
  // channels: the conv's default block is 8 on every host, so it reads the view itself
  // (24 took a block of 24 with AVX-512, and a transform gave the conv a copy of its own).
  graph::Graph g("shifted_residual");
  const graph::ValueId x = g.add_input("x", {{1, 16, 5, 6}});
  const auto z = conv1x1(g, "pre", x, 16);
  const auto y = g.add_node("relu", graph::Relu{}, {x});
  const auto tail = g.add_node("tail", graph::Slice{.axis = 1, .start = 8, .end = 16}, {y});
  g.add_output(g.add_node("sum", graph::Add{}, {conv1x1(g, "conv", z, 8), tail}));
  graph::prepare_for_inference(g);
  NetworkSchedule schedule = kernels::default_network_schedule(g);
  for (const char* name : {"relu", "tail"}) schedule_block(g, schedule, name, 8);
  auto network = kernels::CompiledNetwork::compile(g, schedule);
  check_runs(network, reference_runs(g));
  CHECK(network.summary().views >= 1);
  CHECK(network.summary().in_place == 0);
}

TEST_CASE("a channel slice whose block does not divide its start falls back, still correct") {
  graph::Graph g("offset_slice");
  const graph::ValueId x = g.add_input("x", {{1, 16, 4, 4}});
  const auto y = g.add_node("relu", graph::Relu{}, {x});
  g.add_output(g.add_node("slice", graph::Slice{.axis = 1, .start = 4, .end = 12}, {y}));
  std::mt19937 rng(12);
  NetworkSchedule schedule = random_schedule(g, rng);
  schedule_block(g, schedule, "slice", 8);  // channels [4, 12) straddle two 8-channel blocks
  auto network = kernels::CompiledNetwork::compile(g, schedule);
  check_runs(network, reference_runs(g));
  CHECK(network.summary().fallbacks == 1);
}

namespace {

/// The kind of the step named `name`.
kernels::StepKind kind_of(const kernels::CompiledNetwork& network, const std::string& name) {
  for (const kernels::NetworkStep& step : network.steps())
    if (step.name == name) return step.kind;
  FAIL("no step named " << name);
  return kernels::StepKind::fallback;
}

}  // namespace

TEST_CASE("transposes run as a layout copy of their input, from any blocking, without the reference") {
  for (const std::vector<int64_t>& perm : {std::vector<int64_t>{0, 2, 3, 1}, {0, 1, 3, 2}, {3, 2, 1, 0}}) {
    CAPTURE(perm);
    graph::Graph g("transpose");
    const graph::ValueId x = g.add_input("x", {{2, 16, 3, 5}});
    const graph::ValueId y = g.add_node("relu", graph::Relu{}, {x});
    g.add_output(g.add_node("swap", graph::Transpose{perm}, {y}));
    const ReferenceRuns reference = reference_runs(g);
    std::mt19937 rng(21);
    for (int trial = 0; trial < 4; ++trial) {
      NetworkSchedule schedule = random_schedule(g, rng);
      schedule.nodes[static_cast<size_t>(*g.find_node("swap"))].output = Layout::nchw();
      auto network = kernels::CompiledNetwork::compile(g, schedule);
      check_runs(network, reference);
      CHECK(network.summary().fallbacks == 0);
      CHECK(kind_of(network, "swap") == kernels::StepKind::kernel);
    }
  }
  SUBCASE("rank 3 and rank 2 too") {
    for (const graph::Shape& shape : {graph::Shape{1, 4, 6}, graph::Shape{3, 5}}) {
      CAPTURE(shape);
      graph::Graph g("transpose");
      g.add_output(g.add_node("swap", graph::Transpose{shape.size() == 3 ? std::vector<int64_t>{0, 2, 1} : std::vector<int64_t>{1, 0}},
                              {g.add_input("x", {shape})}));
      auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
      check_runs(network, reference_runs(g));
      CHECK(kind_of(network, "swap") == kernels::StepKind::kernel);
    }
  }
  SUBCASE("a blocked output is no transposed layout: the reference runs it, still correct") {
    graph::Graph g("transpose");
    g.add_output(g.add_node("swap", graph::Transpose{{0, 1, 3, 2}}, {g.add_input("x", {{1, 8, 4, 6}})}));
    NetworkSchedule schedule = kernels::default_network_schedule(g);
    schedule.nodes[0].output = Layout::nchwc(8);
    auto network = kernels::CompiledNetwork::compile(g, schedule);
    check_runs(network, reference_runs(g));
    CHECK(kind_of(network, "swap") == kernels::StepKind::fallback);
  }
}

TEST_CASE("concats along any axis of tensors in canonical order run as copies, without the reference") {
  struct Case {
    std::vector<graph::Shape> inputs;
    int64_t axis;
  };
  // SSD's heads: [N, anchors, classes] joined along anchors; and other axes and ranks.
  for (const Case& t : {Case{{{2, 6, 21}, {2, 4, 21}, {2, 9, 21}}, 1}, Case{{{1, 3, 4}, {1, 3, 6}}, -1},
                        Case{{{1, 8, 2, 3}, {1, 8, 2, 5}}, 3}, Case{{{1, 8, 2, 3}, {1, 8, 4, 3}}, 2}, Case{{{3, 7}, {3, 5}}, 1}}) {
    CAPTURE(t.axis);
    graph::Graph g("plain_concat");
    std::vector<graph::ValueId> inputs;
    for (const graph::Shape& shape : t.inputs) inputs.push_back(g.add_input("x" + std::to_string(inputs.size()), {shape}));
    g.add_output(g.add_node("join", graph::Concat{t.axis}, inputs));
    NetworkSchedule schedule = kernels::default_network_schedule(g);
    NodeSchedule& join = schedule.nodes[static_cast<size_t>(*g.find_node("join"))];
    for (Layout& input : join.inputs) input = layout::canonical_data_layout(t.inputs[0].size());  // 4-D: not blocked
    join.output = layout::canonical_data_layout(t.inputs[0].size());
    auto network = kernels::CompiledNetwork::compile(g, schedule);
    // Two different inputs per graph input, against the reference.
    for (unsigned seed : {3U, 4U}) {
      std::vector<HostTensor> values;
      for (const graph::ValueId x : g.inputs()) {
        values.emplace_back(g.value(x).type.shape);
        std::mt19937 rng(seed + static_cast<unsigned>(values.size()));
        std::uniform_real_distribution<float> uniform(-1.0F, 1.0F);
        for (float& v : values.back().data) v = uniform(rng);
      }
      const std::vector<HostTensor> expected = kernels::reference::run_graph(g, values);
      const std::vector<HostTensor> actual = network.run(values);
      REQUIRE(actual.size() == 1);
      CHECK(actual[0].shape == expected[0].shape);
      CHECK(actual[0].data == expected[0].data);  // copies are exact
    }
    CHECK(kind_of(network, "join") == kernels::StepKind::kernel);
  }
}

namespace {

/// LayerNorm of `x` along `axis` with constant scale and shift.
graph::ValueId layer_norm(graph::Graph& g, const std::string& name, graph::ValueId x, int64_t axis) {
  const int64_t channels = g.value(x).type.shape[static_cast<size_t>(axis)];
  const graph::ValueId scale = constant(g, name + ".scale", {channels}, 1.0F, 0.5F);
  const graph::ValueId shift = constant(g, name + ".shift", {channels}, 0.0F, 0.5F);
  return g.add_node(name, graph::LayerNorm{.axis = axis}, {x, scale, shift});
}

}  // namespace

TEST_CASE("ConvNeXt's layer norm over the channels runs blocked in every layout, without the reference") {
  for (const int64_t channels : {48, 20}) {
    CAPTURE(channels);
    graph::Graph g("channel_norm");
    const graph::ValueId y = g.add_node("relu", graph::Relu{}, {g.add_input("x", {{2, channels, 3, 5}})});
    g.add_output(layer_norm(g, "norm", y, 1));
    check_blocked_schedules(g, reference_runs(g), 9);
  }
}

TEST_CASE("a token block's elementwise steps, norms, softmax and slices run as kernels on rank 3, without the reference") {
  // ViT's pieces on [N, T, C] tokens: the position embedding (a full-shaped constant, on the
  // left), norm, attention's scaling by a scalar, GELU, the residual add, softmax over the
  // last axis, a scalar on the left of a sub, and slices.
  for (const int64_t channels : {20, 32}) {
    CAPTURE(channels);
    graph::Graph g("tokens");
    const graph::ValueId tokens = g.add_input("x", {{2, 7, channels}});
    const auto x = g.add_node("position", graph::Add{}, {constant(g, "embedding", {2, 7, channels}, 0.0F, 1.0F), tokens});
    const graph::ValueId normed = layer_norm(g, "norm", x, 2);
    const auto scaled = g.add_node("scale", graph::Div{}, {normed, constant(g, "root_d", {}, 2.5F, 0.0F)});
    const auto gelu = g.add_node("gelu", graph::Gelu{}, {scaled});
    const auto residual = g.add_node("residual", graph::Add{}, {x, gelu});
    const auto probabilities = g.add_node("softmax", graph::Softmax{.axis = -1}, {residual});
    const auto complement = g.add_node("one_minus", graph::Sub{}, {constant(g, "one", {1}, 1.0F, 0.0F), probabilities});
    // Attention's split of packed q, k, v along the last axis, and the class token's row.
    g.add_output(g.add_node("key", graph::Slice{.axis = 2, .start = channels / 4, .end = channels / 2}, {complement}));
    g.add_output(g.add_node("class_token", graph::Slice{.axis = 1, .start = 0, .end = 1}, {complement}));
    auto network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
    check_runs(network, reference_runs(g));
    CHECK(network.summary().fallbacks == 0);
    for (const char* step : {"position", "norm", "scale", "gelu", "residual", "softmax", "one_minus", "key", "class_token"}) {
      CAPTURE(step);
      CHECK(kind_of(network, step) == kernels::StepKind::kernel);
    }
  }
}
