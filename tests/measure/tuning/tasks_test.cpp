#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "layoutopt/tuning/config_features.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/tuning/task_args.h"
#include "layoutopt/tuning/tuning_task.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using tuning::TuningTask;

namespace {

// The task's arguments as a record writes them.
nlohmann::json args(const TuningTask& task) { return tuning::autotvm_args(task.task_key()); }

}  // namespace

TEST_CASE("resnet-18 has 12 distinct workloads, named and weighted as AutoTVM extracts them, 4 with a Winograd task") {
  const graph::Graph g = graph::zoo::build("resnet-18");
  const std::vector<TuningTask> all = tuning::extract_tasks(g);
  REQUIRE(all.size() == 16);
  std::vector<TuningTask> tasks;  // the direct algorithm of each workload, as AutoTVM extracts them
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].op.family() != kernels::OpFamily::winograd_conv2d) {
      CHECK(all[i].workload == static_cast<int64_t>(tasks.size()));
      tasks.push_back(all[i]);
      continue;
    }
    // A Winograd task follows its workload's direct task and shares everything but the name.
    const TuningTask& direct = all.at(i - 1);
    CHECK(all[i].name == "conv2d_NCHWc_winograd.x86");
    CHECK(args(all[i]) == args(direct));
    CHECK(all[i].weight == direct.weight);
    CHECK(all[i].nodes == direct.nodes);
    CHECK(all[i].workload == direct.workload);
    CHECK(args(direct).at(1).at(1).at(2) == 3);  // 3x3
    CHECK(args(direct).at(2) == nlohmann::json::array({1, 1}));  // stride 1
  }
  REQUIRE(tasks.size() == 12);
  // One algorithm per workload for the default: Winograd for the 3x3 stride-1 convs on 56,
  // 28 and 14 pixels, direct everywhere else but perhaps layer4's (below).
  const std::vector<TuningTask> defaulted = tuning::default_algorithm_tasks(all);
  REQUIRE(defaulted.size() == 12);
  std::vector<int64_t> winograd_images;
  for (size_t i = 0; i < tasks.size(); ++i) {
    CHECK(defaulted[i].workload == tasks[i].workload);
    if (defaulted[i].op.family() == kernels::OpFamily::winograd_conv2d)
      winograd_images.push_back(defaulted[i].op.conv_desc().in_h);
    else
      CHECK(defaulted[i].task_key() == tasks[i].task_key());
  }
  // layer4's 7x7 maps (16 tiles of 2) take Winograd where its weights decide (AVX2 hosts:
  // kernels/include/layoutopt/kernels/winograd_conv2d.h).
  kernels::Conv2dDesc layer4;
  layer4.in_channels = layer4.out_channels = 512;
  layer4.in_h = layer4.in_w = 7;
  layer4.kernel_h = layer4.kernel_w = 3;
  layer4.pad_top = layer4.pad_left = layer4.pad_bottom = layer4.pad_right = 1;
  std::vector<int64_t> expected{56, 28, 14};
  if (kernels::winograd_by_default(layer4)) expected.push_back(7);
  CHECK(winograd_images == expected);
  const int64_t occurrences = std::accumulate(tasks.begin(), tasks.end(), int64_t{0},
                                              [](int64_t sum, const TuningTask& t) { return sum + t.weight; });
  CHECK(occurrences == 21);  // 20 convolutions and the classifier
  CHECK(tuning::tasks_by_node(all).at(all[1].nodes.front()) == std::vector<size_t>{1, 2});  // layer1's 3x3: both algorithms
  CHECK(tasks.front().name == "conv2d_NCHWc.x86");
  CHECK(args(tasks.front()) == nlohmann::json::parse(
                                  R"([["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"],
                                      [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"])"));
  CHECK(tasks[1].weight == 4);  // layer1's four 3x3 convs
  CHECK(tasks.back().name == "dense_nopack.x86");
  CHECK(args(tasks.back()) ==
        nlohmann::json::parse(R"([["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], "float32"], null, "float32"])"));
}

TEST_CASE("depthwise and grouped convolutions get their AutoTVM task names") {
  kernels::Conv2dDesc d;
  d.in_channels = d.out_channels = d.groups = 32;
  d.in_h = d.in_w = 8;
  d.kernel_h = d.kernel_w = 3;
  CHECK(tuning::make_task(kernels::TunableOp::conv2d(d)).name == "depthwise_conv2d_NCHWc.x86");
  d.groups = 4;
  const TuningTask grouped = tuning::make_task(kernels::TunableOp::conv2d(d));
  CHECK(grouped.name == "group_conv2d_nchw.x86");
  CHECK(args(grouped).at(5) == 4);
}

TEST_CASE("AutoTVM's depthwise knobs tile_ic == tile_oc map onto tile_c") {
  kernels::Conv2dDesc d;
  d.in_channels = d.out_channels = d.groups = 32;
  d.in_h = d.in_w = 8;
  d.kernel_h = d.kernel_w = 3;
  const TuningTask task = tuning::make_task(kernels::TunableOp::conv2d(d));
  const auto index = task.config_index({{"tile_ic", 16}, {"tile_oc", 16}, {"tile_ow", 4}, {"unroll_kw", 1}});
  REQUIRE(index.has_value());
  CHECK(task.op.knobs(*index).at("tile_c") == 16);
  CHECK_FALSE(task.config_index({{"tile_ic", 16}, {"tile_oc", 8}, {"tile_ow", 4}}).has_value());
}

TEST_CASE("TunableOp: index_of inverts knobs, layouts and buffer sizes follow the schedule") {
  const TuningTask task = testing::small_conv_task(8);
  const kernels::TunableOp& op = task.op;
  for (int64_t i = 0; i < op.space().size(); ++i) REQUIRE(op.index_of(op.knobs(i)) == std::optional<int64_t>(i));
  CHECK_FALSE(op.index_of({{"tile_ic", 3}}).has_value());
  // A schedule written before prefetch_weights existed names the kernel it ran: the knob's 0.
  std::map<std::string, int64_t> without_prefetch = op.knobs(op.default_index());
  REQUIRE(without_prefetch.at("prefetch_weights") == 0);
  without_prefetch.erase("prefetch_weights");
  CHECK(op.index_of(without_prefetch) == std::optional<int64_t>(op.default_index()));
  std::map<std::string, int64_t> unknown = op.knobs(op.default_index());
  unknown["tile_zz"] = 1;
  CHECK_FALSE(op.index_of(unknown).has_value());

  const auto index = task.config_index({{"tile_ic", 4}, {"tile_oc", 8}, {"tile_ow", 7}, {"unroll_kw", 1}});
  REQUIRE(index.has_value());
  const kernels::OpLayouts layouts = op.layouts(*index);
  CHECK(layouts.input.str() == "NCHW4c");
  CHECK(layouts.output.str() == "NCHW8c");
  const kernels::BufferSizes sizes = op.buffer_sizes(*index);
  CHECK(sizes.input == 8 * 14 * 14);
  CHECK(sizes.weight == 8 * 8 * 3 * 3);
  CHECK(sizes.output == 8 * 14 * 14);
  CHECK(sizes.bias == 0);
  CHECK(op.flops() == doctest::Approx(2.0 * 8 * 14 * 14 * 8 * 9));
  CHECK(tuning::config_features(task, *index).size() == tuning::kConfigFeatureCount);
}

TEST_CASE("config features flag a tile as spilling past this host's accumulator budget, not AVX-512's") {
  const TuningTask task = testing::small_conv_task(32);
  const double budget = kernels::host_info().tile_accumulators();
  int spilling = 0;
  int fitting = 0;
  for (int64_t index = 0; index < task.op.space().searched_size(); ++index) {
    const std::vector<float> f = tuning::config_features(task, index);
    const bool spills = f[tuning::kAccumulatorsFeature] > budget;
    CHECK(f[tuning::kSpillsFeature] == (spills ? 1.0F : 0.0F));
    (spills ? spilling : fitting) += 1;
  }
  // The space has tiles on both sides of the budget, so the check above saw both values.
  CHECK(spilling > 0);
  CHECK(fitting > 0);
}

TEST_CASE("TunableOp compiles and runs a config on random buffers") {
  const TuningTask task = testing::small_conv_task(8);
  const int64_t index = 5;
  const kernels::BufferSizes sizes = task.op.buffer_sizes(index);
  std::vector<float> in(static_cast<size_t>(sizes.input), 0.5F), w(static_cast<size_t>(sizes.weight), 0.25F),
      out(static_cast<size_t>(sizes.output), -1.0F);
  const kernels::Kernel kernel = task.op.compile(index);
  kernel({in.data(), w.data(), nullptr, nullptr, out.data()});
  // Interior pixels see 8 channels x 9 taps x 0.5 x 0.25.
  CHECK(*std::max_element(out.begin(), out.end()) == doctest::Approx(8 * 9 * 0.125));
}

TEST_CASE("the target names the JIT's CPU, the thread count and the cost policy") {
  const std::string target = tuning::host_target(2);
  CHECK(target.rfind("llvm -mcpu=", 0) == 0);
  CHECK(target.find(" -num-cores=2") != std::string::npos);
  CHECK(target.find(std::string(" -cost=") + timing::kCostPolicyName) != std::string::npos);
  CHECK_THROWS_AS((void)tuning::host_target(0), std::invalid_argument);
}

TEST_CASE("reduction passes: knobs of older records run in one pass, and the features see the passes") {
  const TuningTask task = testing::small_conv_task(256);
  const kernels::TunableOp& op = task.op;
  std::map<std::string, int64_t> one_pass = op.knobs(op.default_index());
  REQUIRE(one_pass.at("reduce_chunk") == 0);
  // A record written before reduce_chunk existed names the one-pass kernel it ran.
  std::map<std::string, int64_t> without_chunk = one_pass;
  without_chunk.erase("reduce_chunk");
  CHECK(op.index_of(without_chunk) == std::optional<int64_t>(op.default_index()));
  std::map<std::string, int64_t> in_passes = one_pass;
  in_passes["reduce_chunk"] = 64;
  const auto chunked = op.index_of(in_passes);
  REQUIRE(chunked.has_value());
  const std::vector<float> one = tuning::config_features(task, op.default_index());
  const std::vector<float> four = tuning::config_features(task, *chunked);
  CHECK(one[tuning::kPassesFeature] == 1.0F);
  CHECK(four[tuning::kPassesFeature] == 4.0F);  // 256 channels in passes of 64
  CHECK(four[tuning::kPassWeightsFeature] == doctest::Approx(one[tuning::kPassWeightsFeature] - 2.0));  // a quarter
}

TEST_CASE("flat pixels: knobs of older records tile rows, and the features judge a flat tile by its one row") {
  kernels::Conv2dDesc d;
  d.in_channels = d.out_channels = 64;
  d.in_h = d.in_w = 7;
  const TuningTask task = tuning::make_task(kernels::TunableOp::conv2d(d));
  const kernels::TunableOp& op = task.op;
  std::map<std::string, int64_t> rows = op.knobs(op.default_index());
  rows["flat_pixels"] = 0;
  rows["tile_oh"] = 2;
  rows["tile_ow"] = 3;
  // A record written before flat_pixels existed names the kernel that tiles rows.
  std::map<std::string, int64_t> without_flat = rows;
  without_flat.erase("flat_pixels");
  CHECK(op.index_of(without_flat) == op.index_of(rows));
  std::map<std::string, int64_t> flat = rows;
  flat["flat_pixels"] = 1;
  const std::vector<float> tiled = tuning::config_features(task, *op.index_of(rows));
  const std::vector<float> one_row = tuning::config_features(task, *op.index_of(flat));
  CHECK(tiled[tuning::kFlatPixelsFeature] == 0.0F);
  CHECK(one_row[tuning::kFlatPixelsFeature] == 1.0F);
  CHECK(one_row[tuning::kAccumulatorsFeature] == tiled[tuning::kAccumulatorsFeature]);  // the same 6 pixels
  CHECK(tiled[2] == 3.0F);    // tile width 3 ...
  CHECK(one_row[2] == 6.0F);  // ... against 6 consecutive pixels
  CHECK(one_row[3] == 1.0F);  // in one row
  CHECK(tiled[11] == doctest::Approx(1.0 / 3.0));  // 7 = 2 x 3 + 1: a tail of a third of a tile
  CHECK(one_row[11] == doctest::Approx(1.0 / 6.0));  // 49 = 8 x 6 + 1
}

TEST_CASE("tiles of several output blocks: older records compute one, the features count each block's accumulators") {
  kernels::Conv2dDesc d;
  d.in_channels = 64;
  d.out_channels = 5 * kernels::host_info().vector_lanes;  // five one-vector blocks
  const int64_t lanes = kernels::host_info().vector_lanes;
  d.in_h = d.in_w = 7;
  const TuningTask task = tuning::make_task(kernels::TunableOp::conv2d(d));
  const kernels::TunableOp& op = task.op;
  std::map<std::string, int64_t> one = op.knobs(op.default_index());
  one["tile_oc"] = lanes;
  one["tile_oc_blocks"] = 1;
  // A record written before tile_oc_blocks existed names the kernel of one block per tile.
  std::map<std::string, int64_t> without_blocks = one;
  without_blocks.erase("tile_oc_blocks");
  CHECK(op.index_of(without_blocks) == op.index_of(one));
  std::map<std::string, int64_t> two = one;
  two["tile_oc_blocks"] = 2;
  const std::vector<float> single = tuning::config_features(task, *op.index_of(one));
  const std::vector<float> pair = tuning::config_features(task, *op.index_of(two));
  CHECK(single[tuning::kTileBlocksFeature] == 1.0F);
  CHECK(pair[tuning::kTileBlocksFeature] == 2.0F);
  CHECK(pair[tuning::kAccumulatorsFeature] == 2 * single[tuning::kAccumulatorsFeature]);
}

TEST_CASE("input prefetching: older records name the kernel without it, the features see it and the stride") {
  const TuningTask task = testing::small_conv_task(64, 1, 14, 2);
  const kernels::TunableOp& op = task.op;
  std::map<std::string, int64_t> off = op.knobs(op.default_index());
  REQUIRE(off.at("prefetch_input") == 1);  // the default fetches ahead for a strided 3x3
  off["prefetch_input"] = 0;
  // A record written before prefetch_input existed names the kernel that does not prefetch.
  std::map<std::string, int64_t> without = off;
  without.erase("prefetch_input");
  CHECK(op.index_of(without) == op.index_of(off));
  const std::vector<float> plain = tuning::config_features(task, *op.index_of(off));
  const std::vector<float> fetching = tuning::config_features(task, op.default_index());
  CHECK(plain != fetching);
  CHECK(plain[tuning::kConfigFeatureCount - 1] == 4.0F);  // 2 x 2 input pixels per output pixel
}

TEST_CASE("a workload with a number no integer holds names no task, never a cast out of range") {
  // Found by fuzz/records_fuzz.cpp: a dilation of 1.2e102 was cast to int64 reading the task
  // key (fuzz/regressions/records/).
  const auto args = [](const std::string& dilation) {
    return nlohmann::json::parse(R"([["TENSOR",[1,3,16,16],"float32"],["TENSOR",[8,3,3,3],"float32"],[1,1],[1,1,1,1],)" +
                                 dilation + R"(,"NCHW","NCHW","float32"])");
  };
  CHECK(tuning::task_key_of("conv2d_NCHWc.x86", args("[1,1]")).has_value());
  for (const char* damaged : {"[1,1.2e102]", "[1,1.5]", "[1,-1e300]", "[1]", "[1,1,1]"})
    CHECK_FALSE(tuning::task_key_of("conv2d_NCHWc.x86", args(damaged)).has_value());
}

TEST_CASE("a 1x1 conv whose channels no vector divides gets a GEMM-over-pixels task, with its own name and knobs") {
  graph::Graph g("pointwise");
  const auto seeded = [](int64_t count) { return graph::WeightData::seeded({1}, count); };
  const auto x = g.add_input("x", {{1, 58, 8, 8}});
  const auto w1 = g.add_parameter("odd.weight", {58, 58, 1, 1}, seeded(58 * 58));
  const auto odd = g.add_node("odd", graph::Conv2d{}, {x, w1});
  const auto w2 = g.add_parameter("even.weight", {64, 58, 1, 1}, seeded(64 * 58));
  const auto even = g.add_node("even", graph::Conv2d{}, {odd, w2});
  const auto w3 = g.add_parameter("blocked.weight", {64, 64, 1, 1}, seeded(64 * 64));
  g.add_output(g.add_node("blocked", graph::Conv2d{}, {even, w3}));
  std::map<std::string, std::vector<kernels::OpFamily>> families;
  for (const TuningTask& task : tuning::extract_tasks(g))
    for (const graph::NodeId node : task.nodes) families[g.node(node).name].push_back(task.op.family());
  // 58 -> 58 and 58 -> 64 read or write channels no vector divides; 64 -> 64 fills vectors.
  CHECK(families["odd"] == std::vector{kernels::OpFamily::conv2d, kernels::OpFamily::gemm_conv2d});
  CHECK(families["even"] == std::vector{kernels::OpFamily::conv2d, kernels::OpFamily::gemm_conv2d});
  CHECK(families["blocked"] == std::vector{kernels::OpFamily::conv2d});

  const TuningTask gemm = tuning::make_task(kernels::TunableOp::gemm_conv2d(kernels::conv2d_desc(g, odd)));
  CHECK(gemm.name == "conv2d_1x1_nchw_gemm.x86");
  // The key round-trips through a record's arguments, and the record's knobs back to the config.
  CHECK(tuning::task_key_of(gemm.name, args(gemm)) == gemm.task_key());
  const int64_t index = gemm.op.default_index();
  CHECK(gemm.config_index(gemm.op.knobs(index)) == index);
  // Accumulators count vectors of pixels per channel row: two vectors of pixels by the rows.
  const std::vector<float> features = tuning::config_features(gemm, index);
  const auto knobs = gemm.op.knobs(index);
  const double vectors = std::ceil(static_cast<double>(knobs.at("tile_pixels")) / kernels::host_info().vector_lanes);
  CHECK(features[tuning::kAccumulatorsFeature] == doctest::Approx(vectors * static_cast<double>(knobs.at("tile_channels"))));
}
