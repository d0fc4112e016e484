// Per-layer conv2d throughput: layoutopt's JIT kernels (best schedule of a bounded two-stage
// sweep over the schedule space) against oneDNN (blocked formats via format_tag::any, weights
// reordered ahead of time, same OpenMP thread count), side by side in one run.
//
//   build/bench/bench_kernels                          # all layers, 5 repetitions
//   build/bench/bench_kernels --benchmark_filter=resnet50
//   build/bench/bench_kernels --benchmark_filter=resnext50
//   build/bench/bench_kernels --benchmark_filter=winograd
//   build/bench/bench_kernels --benchmark_filter=dilated
//   build/bench/bench_kernels --benchmark_filter=efficientnet
//   build/bench/bench_kernels --benchmark_filter=densenet201
//   build/bench/bench_kernels --benchmark_filter=strided
//
// The resnet50, resnext50 (its grouped convs), densenet201 and mobilenet_v2 families compare
// direct convolution with oneDNN's direct convolution. The winograd family takes the 3x3 stride-1 layers of ResNet-50 and VGG-19 and
// compares our Winograd kernel (F(2x2) or F(4x4), best of a sweep) with oneDNN's own choice
// (algorithm::convolution_auto: its Winograd kernel where it has one and deems it faster).
// The efficientnet_b0 family fuses SiLU (swish) instead of ReLU on both sides, where the
// activation is much of the work. The dilated family runs each dilated 3x3 layer of
// fcn-resnet50 / deeplabv3 by our direct and by our Winograd kernel. The strided family puts
// hrnet_w18_small's 3x3 stride-2 convs beside stride-1 twins of the same output and FLOPs.
//
// Each benchmark is one layer. Every iteration times a block of runs (>= 2 ms) of ours and
// the same number of oneDNN's, in alternating order; the Time column is one block of ours.
// Counters, per repetition (the *_median rows take their median over repetitions):
//   ours_us, onednn_us      median per-run time over the repetition's blocks
//   ours_GFLOPS, onednn_GFLOPS  the same as throughput
//   ratio                   ours' speed / oneDNN's: median over iterations of each
//                           iteration's own pair of blocks
//   compile_ms              compile time of the chosen kernel
//   schedules               how many schedules the sweep compiled and timed
//   beside_GFLOPS           the FMA peak probe's median, run right after the repetition
// Both sides fuse bias + relu (SiLU in efficientnet_b0). A summary table of the medians is
// printed at the end, with each layer's share of the FMA peak that `layoutopt cpu` measures
// (same threads), and its share of the peak probed beside it: a shared host's slow stretches
// slow the register-only probe as they slow the layer, so the second share tells a slow
// kernel from a layer timed in a slow stretch.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <string>
#include <vector>

#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/depthwise_conv2d.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "layoutopt/timing/peak_flops.h"

namespace {

using namespace layoutopt::kernels;
using Clock = std::chrono::steady_clock;

constexpr double kSweepSecondsPerSchedule = 0.02;
constexpr double kBlockSeconds = 0.002;        // minimum length of one timed block of runs

// The ceiling the layers' efficiencies are quoted against, measured in the same process
// before the first layer and again after the last: the higher of the two, since a busy host
// can only slow the register-only probe down (as it slows the layers).
struct MachinePeak {
  double fma_gflops = 0;
  double fma_and_add_gflops = 0;

  void measure() {
    const layoutopt::timing::PeakFlops peak = layoutopt::timing::measure_peak_flops();
    fma_gflops = std::max(fma_gflops, peak.gflops);
    fma_and_add_gflops = std::max(fma_and_add_gflops, peak.fma_and_add_gflops);
  }
};

MachinePeak& machine_peak() {
  static MachinePeak peak;
  return peak;
}

// A short probe of the FMA peak beside each repetition of a layer (about 0.1 s): its median
// run is what the machine gave the layer's median block in the same stretch.
double peak_beside_layer_gflops() {
  layoutopt::timing::TimingPolicy policy = layoutopt::timing::peak_flops_policy();
  policy.warmup_runs = 2;
  policy.min_repeats = 5;
  policy.min_repeat_ms = 30;
  return layoutopt::timing::measure_peak_flops(policy).median_gflops;
}

// A layer timed while the probe beside it ran below this share of the session's peak was
// timed in a slow stretch of the host.
constexpr double kSlowStretchShare = 0.9;

// ---------------------------------------------------------------------------------------
// Workloads

enum class Algorithm { direct, winograd };

struct Layer {
  std::string name;
  Conv2dDesc desc;
  Algorithm algorithm = Algorithm::direct;
};

Conv2dDesc conv(int64_t c, int64_t hw, int64_t o, int64_t k, int64_t stride) {
  Conv2dDesc d;
  d.in_channels = c, d.in_h = d.in_w = hw, d.out_channels = o;
  d.kernel_h = d.kernel_w = k;
  d.stride_h = d.stride_w = stride;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = k / 2;
  d.epilogue = {true, Activation::Relu, false, Activation::None};
  return d;
}

// A 3x3 stride-1 conv dilated by `dilation`, padded to keep the map's size.
Conv2dDesc dilated(int64_t c, int64_t hw, int64_t o, int64_t dilation) {
  Conv2dDesc d = conv(c, hw, o, 3, 1);
  d.dilation_h = d.dilation_w = dilation;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = dilation;
  return d;
}

Conv2dDesc depthwise(int64_t c, int64_t hw, int64_t stride, int64_t k = 3) {
  Conv2dDesc d = conv(c, hw, c, k, stride);
  d.groups = c;
  return d;
}

// The same conv with SiLU (x * sigmoid(x), swish) in place of ReLU.
Conv2dDesc with_silu(Conv2dDesc d) {
  d.epilogue.activation = Activation::Silu;
  return d;
}

// Every distinct conv of torchvision's ResNet-50 (v1.5: stride on the 3x3), batch 1, 224x224.
std::vector<Layer> resnet50_layers() {
  return {
      {"stem_7x7s2_c3_o64_224", conv(3, 224, 64, 7, 2)},
      {"s1_1x1_c64_o64_56", conv(64, 56, 64, 1, 1)},
      {"s1_3x3_c64_o64_56", conv(64, 56, 64, 3, 1)},
      {"s1_1x1_c64_o256_56(+proj)", conv(64, 56, 256, 1, 1)},
      {"s1_1x1_c256_o64_56", conv(256, 56, 64, 1, 1)},
      {"s2_1x1_c256_o128_56", conv(256, 56, 128, 1, 1)},
      {"s2_3x3s2_c128_o128_56", conv(128, 56, 128, 3, 2)},
      {"s2_1x1_c128_o512_28", conv(128, 28, 512, 1, 1)},
      {"s2_proj_1x1s2_c256_o512_56", conv(256, 56, 512, 1, 2)},
      {"s2_1x1_c512_o128_28", conv(512, 28, 128, 1, 1)},
      {"s2_3x3_c128_o128_28", conv(128, 28, 128, 3, 1)},
      {"s3_1x1_c512_o256_28", conv(512, 28, 256, 1, 1)},
      {"s3_3x3s2_c256_o256_28", conv(256, 28, 256, 3, 2)},
      {"s3_1x1_c256_o1024_14", conv(256, 14, 1024, 1, 1)},
      {"s3_proj_1x1s2_c512_o1024_28", conv(512, 28, 1024, 1, 2)},
      {"s3_1x1_c1024_o256_14", conv(1024, 14, 256, 1, 1)},
      {"s3_3x3_c256_o256_14", conv(256, 14, 256, 3, 1)},
      {"s4_1x1_c1024_o512_14", conv(1024, 14, 512, 1, 1)},
      {"s4_3x3s2_c512_o512_14", conv(512, 14, 512, 3, 2)},
      {"s4_1x1_c512_o2048_7", conv(512, 7, 2048, 1, 1)},
      {"s4_proj_1x1s2_c1024_o2048_14", conv(1024, 14, 2048, 1, 2)},
      {"s4_1x1_c2048_o512_7", conv(2048, 7, 512, 1, 1)},
      {"s4_3x3_c512_o512_7", conv(512, 7, 512, 3, 1)},
  };
}

// DenseNet-201's bottleneck convs (1x1 over the growing concatenation, 128 out) at the
// first, middle and last layer of each dense block, its 3x3 growth conv per block, and its
// last transition's 1x1 conv on the pooled image (graph/passes/pool_before_pointwise_conv.h).
std::vector<Layer> densenet201_layers() {
  return {
      {"b1_1x1_c64_o128_56", conv(64, 56, 128, 1, 1)},    {"b1_1x1_c224_o128_56", conv(224, 56, 128, 1, 1)},
      {"b1_3x3_c128_o32_56", conv(128, 56, 32, 3, 1)},    {"b2_1x1_c128_o128_28", conv(128, 28, 128, 1, 1)},
      {"b2_1x1_c480_o128_28", conv(480, 28, 128, 1, 1)},  {"b2_3x3_c128_o32_28", conv(128, 28, 32, 3, 1)},
      {"b3_1x1_c256_o128_14", conv(256, 14, 128, 1, 1)},  {"b3_1x1_c1024_o128_14", conv(1024, 14, 128, 1, 1)},
      {"b3_1x1_c1760_o128_14", conv(1760, 14, 128, 1, 1)}, {"b3_3x3_c128_o32_14", conv(128, 14, 32, 3, 1)},
      {"t3_1x1_c1792_o896_7", conv(1792, 7, 896, 1, 1)},  {"b4_1x1_c896_o128_7", conv(896, 7, 128, 1, 1)},
      {"b4_1x1_c1888_o128_7", conv(1888, 7, 128, 1, 1)},  {"b4_3x3_c128_o32_7", conv(128, 7, 32, 3, 1)},
  };
}

// Every distinct pointwise and depthwise conv of MobileNet-v2 (width 1.0), batch 1, 224x224.
std::vector<Layer> mobilenet_v2_layers() {
  return {
      {"dw_c32_112", depthwise(32, 112, 1)},      {"pw_c32_o16_112", conv(32, 112, 16, 1, 1)},
      {"pw_c16_o96_112", conv(16, 112, 96, 1, 1)}, {"dw_s2_c96_112", depthwise(96, 112, 2)},
      {"pw_c96_o24_56", conv(96, 56, 24, 1, 1)},   {"pw_c24_o144_56", conv(24, 56, 144, 1, 1)},
      {"dw_c144_56", depthwise(144, 56, 1)},       {"pw_c144_o24_56", conv(144, 56, 24, 1, 1)},
      {"dw_s2_c144_56", depthwise(144, 56, 2)},    {"pw_c144_o32_28", conv(144, 28, 32, 1, 1)},
      {"pw_c32_o192_28", conv(32, 28, 192, 1, 1)}, {"dw_c192_28", depthwise(192, 28, 1)},
      {"pw_c192_o32_28", conv(192, 28, 32, 1, 1)}, {"dw_s2_c192_28", depthwise(192, 28, 2)},
      {"pw_c192_o64_14", conv(192, 14, 64, 1, 1)}, {"pw_c64_o384_14", conv(64, 14, 384, 1, 1)},
      {"dw_c384_14", depthwise(384, 14, 1)},       {"pw_c384_o64_14", conv(384, 14, 64, 1, 1)},
      {"pw_c384_o96_14", conv(384, 14, 96, 1, 1)}, {"pw_c96_o576_14", conv(96, 14, 576, 1, 1)},
      {"dw_c576_14", depthwise(576, 14, 1)},       {"pw_c576_o96_14", conv(576, 14, 96, 1, 1)},
      {"dw_s2_c576_14", depthwise(576, 14, 2)},    {"pw_c576_o160_7", conv(576, 7, 160, 1, 1)},
      {"pw_c160_o960_7", conv(160, 7, 960, 1, 1)}, {"dw_c960_7", depthwise(960, 7, 1)},
      {"pw_c960_o160_7", conv(960, 7, 160, 1, 1)}, {"pw_c960_o320_7", conv(960, 7, 320, 1, 1)},
      {"pw_c320_o1280_7", conv(320, 7, 1280, 1, 1)},
  };
}

// EfficientNet-B0's SiLU convs at full resolution, where the activation's share of the work
// is largest (few channels per output), and two at 7x7: the stem, expansions, depthwise
// (3x3 and 5x5) and the head, batch 1, 224x224.
std::vector<Layer> efficientnet_b0_layers() {
  return {
      {"stem_3x3s2_c3_o32_224", with_silu(conv(3, 224, 32, 3, 2))},
      {"dw_c32_112", with_silu(depthwise(32, 112, 1))},
      {"pw_c16_o96_112", with_silu(conv(16, 112, 96, 1, 1))},
      {"dw_s2_c96_112", with_silu(depthwise(96, 112, 2))},
      {"pw_c24_o144_56", with_silu(conv(24, 56, 144, 1, 1))},
      {"dw_c144_56", with_silu(depthwise(144, 56, 1))},
      {"dw5x5_s2_c144_56", with_silu(depthwise(144, 56, 2, 5))},
      {"pw_c40_o240_28", with_silu(conv(40, 28, 240, 1, 1))},
      {"pw_c192_o1152_7", with_silu(conv(192, 7, 1152, 1, 1))},
      {"head_pw_c320_o1280_7", with_silu(conv(320, 7, 1280, 1, 1))},
  };
}

// The grouped 3x3 convs of ResNeXt-50 32x4d, batch 1, 224x224: 32 groups of 4, 8, 16 and 32
// channels (the first conv of stages 2-4 strided). Its 1x1 convs are ResNet-50's.
Conv2dDesc grouped(int64_t c, int64_t hw, int64_t stride) {
  Conv2dDesc d = conv(c, hw, c, 3, stride);
  d.groups = 32;
  return d;
}

std::vector<Layer> resnext50_layers() {
  return {
      {"g3x3_c128_56", grouped(128, 56, 1)},  {"g3x3s2_c256_56", grouped(256, 56, 2)},
      {"g3x3_c256_28", grouped(256, 28, 1)},  {"g3x3s2_c512_28", grouped(512, 28, 2)},
      {"g3x3_c512_14", grouped(512, 14, 1)},  {"g3x3s2_c1024_14", grouped(1024, 14, 2)},
      {"g3x3_c1024_7", grouped(1024, 7, 1)},
  };
}

// The 3x3 stride-1 convs of ResNet-50 and VGG-19, batch 1, 224x224: the Winograd family.
std::vector<Layer> winograd_layers() {
  std::vector<Layer> layers{
      {"resnet50_3x3_c64_o64_56", conv(64, 56, 64, 3, 1)},    {"resnet50_3x3_c128_o128_28", conv(128, 28, 128, 3, 1)},
      {"resnet50_3x3_c256_o256_14", conv(256, 14, 256, 3, 1)}, {"resnet50_3x3_c512_o512_7", conv(512, 7, 512, 3, 1)},
      {"vgg19_3x3_c64_o64_224", conv(64, 224, 64, 3, 1)},      {"vgg19_3x3_c128_o128_112", conv(128, 112, 128, 3, 1)},
      {"vgg19_3x3_c256_o256_56", conv(256, 56, 256, 3, 1)},    {"vgg19_3x3_c512_o512_28", conv(512, 28, 512, 3, 1)},
      {"vgg19_3x3_c512_o512_14", conv(512, 14, 512, 3, 1)},
  };
  for (Layer& layer : layers) layer.algorithm = Algorithm::winograd;
  return layers;
}

// The dilated 3x3 convs of fcn-resnet50 and deeplabv3 (output stride 8: dilation 2 in the
// third stage, 4 in the fourth, at 28x28 for a 224x224 input), each by both of our
// algorithms: the dilated family (oneDNN's side as for the other families: its direct kernel
// against our direct one, its own choice against our Winograd).
std::vector<Layer> dilated_layers() {
  const std::vector<std::pair<std::string, Conv2dDesc>> convs{{"3x3_c256_o256_28_d2", dilated(256, 28, 256, 2)},
                                                              {"3x3_c512_o512_28_d4", dilated(512, 28, 512, 4)}};
  std::vector<Layer> layers;
  for (const auto& [name, desc] : convs) {
    layers.push_back({name + "_direct", desc, Algorithm::direct});
    layers.push_back({name + "_winograd", desc, Algorithm::winograd});
  }
  return layers;
}

// The 3x3 stride-2 convs of hrnet_w18_small (its stem's second conv and its classification
// head's downsampling convs, 40% of its time), each beside its stride-1 twin: the same
// output and FLOPs from an input of the output's size. The pair's gap is what the stride costs.
std::vector<Layer> strided_layers() {
  const std::vector<std::array<int64_t, 3>> shapes{{64, 112, 64}, {128, 56, 256}, {256, 28, 512}, {512, 14, 1024}};
  std::vector<Layer> layers;
  for (const auto& [c, hw, o] : shapes) {
    const std::string shape = "c" + std::to_string(c) + "_o" + std::to_string(o) + "_" + std::to_string(hw);
    layers.push_back({"hrnet_3x3s2_" + shape, conv(c, hw, o, 3, 2)});
    layers.push_back({"twin_3x3s1_" + shape, conv(c, hw / 2, o, 3, 1)});
  }
  return layers;
}

// The benchmark's families, in the order they run and are summarised.
struct Family {
  std::string name;
  std::vector<Layer> layers;
};

const std::vector<Family>& families() {
  static const std::vector<Family> all{{"resnet50", resnet50_layers()},
                                       {"resnext50", resnext50_layers()},
                                       {"densenet201", densenet201_layers()},
                                       {"mobilenet_v2", mobilenet_v2_layers()},
                                       {"efficientnet_b0", efficientnet_b0_layers()},
                                       {"winograd", winograd_layers()},
                                       {"dilated", dilated_layers()},
                                       {"strided", strided_layers()}};
  return all;
}

// ---------------------------------------------------------------------------------------
// Buffers and timing

struct AlignedFree {
  void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float[], AlignedFree>;

Buffer random_buffer(int64_t floats, unsigned seed) {
  const auto bytes = static_cast<size_t>((floats * 4 + 63) / 64 * 64);
  Buffer buffer(static_cast<float*>(std::aligned_alloc(64, bytes)));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0F, 1.0F);
  for (int64_t i = 0; i < floats; ++i) buffer[static_cast<size_t>(i)] = uniform(rng);
  return buffer;
}

template <typename Run>
double seconds_of(const Run& run, int repeats) {
  const auto start = Clock::now();
  for (int i = 0; i < repeats; ++i) run();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<long>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Fastest of at least `min_runs` runs within a time budget (one warm-up run first). The sweep
// ranks schedules by their best case: on a shared machine that is the least noisy statistic;
// the benchmark proper then reports medians.
template <typename Run>
double fastest_seconds(const Run& run, double budget_seconds = kSweepSecondsPerSchedule, int min_runs = 3) {
  run();
  double fastest = seconds_of(run, 1), total = fastest;
  for (int runs = 1; runs < min_runs || (total < budget_seconds && runs < 50); ++runs) {
    const double seconds = seconds_of(run, 1);
    fastest = std::min(fastest, seconds);
    total += seconds;
  }
  return fastest;
}

// ---------------------------------------------------------------------------------------
// Our side: a bounded sweep over the schedule space

// Channel blocks worth trying: multiples of the vector width up to `max_vectors` vectors, else
// the largest divisor up to 64 (odd channel counts such as the stem's 3).
std::vector<int64_t> block_candidates(int64_t channels, int64_t lanes, int64_t max_vectors = 4) {
  std::vector<int64_t> result;
  for (int64_t d : divisors(channels))
    if (d % lanes == 0 && d <= max_vectors * lanes) result.push_back(d);
  if (result.empty()) {
    int64_t best = 1;
    for (int64_t d : divisors(channels))
      if (d <= 64) best = d;
    result.push_back(best);
  }
  return result;
}

// Widest tile width up to `limit` that splits the row into equal tiles (56 -> 28, 19, 14...).
int64_t balanced_width(int64_t out_w, int64_t limit) {
  for (int64_t w = std::min(out_w, limit); w > 1; --w) {
    const int64_t tiles = (out_w + w - 1) / w;
    if ((out_w + tiles - 1) / tiles == w) return w;
  }
  return 1;
}

// Register-tile widths: the `widest` widest balanced widths that fit the accumulator budget,
// and one of about half the budget (wide tiles of strided / 7x7 convs can run out of registers
// for the broadcasts and weights, which LLVM then spills).
std::vector<int64_t> width_candidates(int64_t out_w, int64_t max_width, int widest = 2) {
  std::vector<int64_t> result;
  for (int64_t limit = max_width; limit >= 1 && static_cast<int>(result.size()) < widest;) {
    const int64_t w = balanced_width(out_w, limit);
    result.push_back(w);
    limit = w - 1;
  }
  const int64_t half = balanced_width(out_w, std::max<int64_t>(1, max_width / 2));
  if (std::find(result.begin(), result.end(), half) == result.end()) result.push_back(half);
  return result;
}

constexpr int64_t kPackedTileAccumulators = 8;

// Register tiles and blocks of the first sweep stage: the default schedule, every
// vector-multiple channel block up to 64 for outputs and 128 for inputs (a long reduction
// block amortises the output loads/stores of 1x1 convs), one-vector output blocks also in
// tiles of the block counts the space offers (tile_oc_blocks), every tile_oh the space allows
// (conv2d_max_tile_rows), and the three widest balanced widths within the accumulator budget
// plus one of half of it. oc_inner is left to the second stage.
std::vector<Conv2dSchedule> conv2d_candidates(const Conv2dDesc& d) {
  const int64_t lanes = host_info().vector_lanes;
  const int64_t max_oh = conv2d_max_tile_rows(d);
  const ConfigSpace space = conv2d_space(d);  // values() refers into it
  std::vector<Conv2dSchedule> result{conv2d_default_schedule(d)};
  const std::vector<int64_t> one_block{1};
  // Blocks of packed groups (wider than a group) as the space offers them; they reduce over
  // a whole group.
  std::vector<int64_t> out_blocks = block_candidates(d.out_channels_per_group(), lanes);
  for (int64_t oc_bn : space.values(knobs::conv2d::tile_oc.name))
    if (oc_bn > d.out_channels_per_group()) out_blocks.push_back(oc_bn);
  const std::vector<int64_t> in_blocks = block_candidates(d.in_channels_per_group(), lanes, 8);
  const std::vector<int64_t> whole_group{d.in_channels_per_group()};
  for (int64_t oc_bn : out_blocks)
    for (int64_t tile_blocks : oc_bn == lanes ? space.values(knobs::conv2d::tile_oc_blocks.name) : one_block)
      for (int64_t ic_bn : oc_bn > d.out_channels_per_group() ? whole_group : in_blocks) {
        const int64_t vectors = tile_blocks * host_info().vectors_spanning(oc_bn);
        for (int64_t oh_bn = 1; oh_bn <= max_oh; ++oh_bn) {
          // Packed groups share each pixel's shuffles across the kernel's columns, which
          // take registers too: narrower tiles.
          const int64_t accumulators =
              oc_bn > d.out_channels_per_group() ? kPackedTileAccumulators : host_info().tile_accumulators();
          const int64_t max_width = accumulators / (vectors * oh_bn);
          if (max_width < 1) continue;
          for (int64_t ow_bn : width_candidates(d.out_w(), max_width, 3)) {
            Conv2dSchedule s{ic_bn, oc_bn, ow_bn, true, oh_bn};
            s.oc_tile_blocks = tile_blocks;
            result.push_back(s);
          }
        }
      }
  return result;
}

std::vector<DepthwiseConv2dSchedule> depthwise_candidates(const Conv2dDesc& d) {
  const int64_t lanes = host_info().vector_lanes;
  std::vector<DepthwiseConv2dSchedule> result;
  for (int64_t c_bn : block_candidates(d.in_channels, lanes)) {
    const int64_t chunks = host_info().vectors_spanning(c_bn);
    for (int64_t oh_bn : {1, 2})
      for (int64_t ow_bn : width_candidates(d.out_w(), host_info().tile_accumulators() / (chunks * oh_bn)))
        if (oh_bn <= d.out_h()) result.push_back({c_bn, ow_bn, oh_bn});
  }
  return result;
}

struct Choice {
  Kernel kernel;
  std::string schedule;
  double seconds;
};

template <typename Schedule, typename Compile>
Choice sweep(const std::vector<Schedule>& schedules, const Compile& compile, const KernelArgs& args) {
  std::unique_ptr<Choice> best;
  for (const Schedule& schedule : schedules) {
    const Kernel kernel = compile(schedule);
    const double seconds = fastest_seconds([&] { kernel(args); });
    if (!best || seconds < best->seconds)
      best = std::make_unique<Choice>(Choice{kernel, schedule.str(), seconds});
  }
  return *best;
}

constexpr double kScreenSecondsPerSchedule = 0.006;  // first stage: a quick screen
constexpr size_t kFinalists = 8;                     // tiles the second stage re-times
constexpr int kFinalBlocks = 7;                      // timed blocks per second-stage schedule

// Per-run time as the benchmark measures it: the median over blocks of back-to-back runs
// (>= kBlockSeconds each, after a warm-up), not a single best run, so that the second stage
// ranks by the same statistic the table reports.
template <typename Run>
double median_block_seconds(const Run& run, double one_run_seconds) {
  const int block = std::max(1, static_cast<int>(kBlockSeconds / one_run_seconds));
  run();
  std::vector<double> blocks;
  for (int i = 0; i < kFinalBlocks; ++i) blocks.push_back(seconds_of(run, block) / block);
  return median(blocks);
}

// What the second stage tries on each finalist: both work-item orders, and for direct convs
// every reduction pass length the space offers (reduce_chunk, 0 = one pass), for 1x1
// stride-1 convs the image tiled as one row of pixels, and for strided convs input rows
// fetched ahead or not (docs/design/input-prefetch.md).
std::vector<Conv2dSchedule> second_stage_variants(const Conv2dSchedule& finalist, const Conv2dDesc& d) {
  const ConfigSpace space = conv2d_space(d);  // values() refers into it
  std::vector<Conv2dSchedule> result;
  for (bool oc_inner : {false, true})
    for (int64_t chunk : space.values(knobs::conv2d::reduce_chunk.name))
      for (int64_t flat : space.values(knobs::conv2d::flat_pixels.name))
        for (int64_t fetch : space.values(knobs::conv2d::prefetch_input.name)) {
          Conv2dSchedule s = finalist;
          s.oc_inner = oc_inner;
          s.reduce_chunk = chunk;
          s.flat_pixels = flat != 0;
          s.prefetch_input = fetch != 0;
          result.push_back(s);
        }
  return result;
}

std::vector<WinogradSchedule> second_stage_variants(const WinogradSchedule& finalist, const Conv2dDesc&) {
  std::vector<WinogradSchedule> result;
  for (bool oc_inner : {false, true}) {
    WinogradSchedule s = finalist;
    s.oc_inner = oc_inner;
    result.push_back(s);
  }
  return result;
}

// Two stages, all before (and outside) the timed benchmark loop:
//  1. screen every candidate tile/block (conv2d_candidates, oc_inner off, one pass) with a
//     short timing (fastest of >= 3 runs after a warm-up): cheap enough to cover ~50-200
//     points per layer;
//  2. re-time the best few of them, each in its second_stage_variants (work-item orders,
//     reduction passes), by the benchmark's own statistic, so the winner is not a lucky
//     screen sample; those knobs interact little with the tile, so only finalists get them.
template <typename Schedule, typename Compile>
Choice two_stage_sweep(const Conv2dDesc& d, const std::vector<Schedule>& candidates, const Compile& compile,
                       const KernelArgs& args, int64_t& schedules, const std::string& label = "") {
  std::vector<std::pair<double, size_t>> screened;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Kernel kernel = compile(candidates[i]);
    screened.emplace_back(fastest_seconds([&] { kernel(args); }, kScreenSecondsPerSchedule, 3), i);
  }
  std::sort(screened.begin(), screened.end());
  std::unique_ptr<Choice> best;
  int64_t finalists = 0;
  for (size_t i = 0; i < std::min(kFinalists, screened.size()); ++i)
    for (const Schedule& s : second_stage_variants(candidates[screened[i].second], d)) {
      const Kernel kernel = compile(s);
      const double seconds = median_block_seconds([&] { kernel(args); }, screened[i].first);
      if (!best || seconds < best->seconds) best = std::make_unique<Choice>(Choice{kernel, label + s.str(), seconds});
      ++finalists;
    }
  schedules = static_cast<int64_t>(candidates.size()) + finalists;
  return *best;
}

Choice sweep_conv2d(const Conv2dDesc& d, const KernelArgs& args, int64_t& schedules) {
  return two_stage_sweep(d, conv2d_candidates(d), [&](const Conv2dSchedule& s) { return compile_conv2d(d, s); }, args,
                         schedules);
}

// Winograd: both tile sizes, whole stages and bands of one tile row (each thread takes a
// band through all three stages, its intermediates in its L2), vector-multiple blocks up to
// 64 channels, one-vector blocks also 2 and 4 to a register tile, and the widest balanced
// register widths over the tiles of a band; the default schedule too; then, as for conv2d,
// the finalists are re-timed with both work-item orders.
std::vector<WinogradSchedule> winograd_candidates(const Conv2dDesc& d) {
  const int64_t lanes = host_info().vector_lanes;
  std::vector<WinogradSchedule> result{winograd_default_schedule(d)};
  for (int64_t m : {2, 4}) {
    const WinogradTileGrid grid = winograd_tile_grid(d, m);
    const int64_t max_t = winograd_conv2d_space(d).values(knobs::winograd_conv2d::tile_t.name).back();
    for (int64_t band_rows : {0, 1}) {
      const int64_t band_tiles = grid.columns * (band_rows == 0 ? grid.rows : band_rows);
      for (int64_t oc_bn : block_candidates(d.out_channels, lanes))
        for (int64_t ic_bn : block_candidates(d.in_channels, lanes))
          for (int64_t tile_blocks : {1, 2, 4}) {
            if (tile_blocks > 1 && (oc_bn != lanes || d.out_channels < tile_blocks * oc_bn)) continue;
            const int64_t vectors = tile_blocks * host_info().vectors_spanning(oc_bn);
            const int64_t widest = std::min({max_t, band_tiles, host_info().tile_accumulators() / vectors});
            for (int64_t t : width_candidates(band_tiles, widest, 3))
              result.push_back({.m = m, .ic_bn = ic_bn, .oc_bn = oc_bn, .tile_t = t, .band_rows = band_rows,
                                .oc_tile_blocks = tile_blocks});
          }
    }
  }
  return result;
}

Choice sweep_winograd(const Conv2dDesc& d, const KernelArgs& args, int64_t& schedules) {
  return two_stage_sweep(d, winograd_candidates(d),
                         [&](const WinogradSchedule& s) { return compile_winograd_conv2d(d, s); }, args, schedules,
                         "winograd ");
}

// Buffers sized for the largest channel blocking (blocked tensors have the same size).
struct OurTensors {
  Buffer input, weight, bias, output;
  KernelArgs args() const { return {input.get(), weight.get(), bias.get(), nullptr, output.get()}; }
};

// Weights as the kernel reads them: re-laid for direct convolution, for Winograd transformed
// (alpha^2 per channel pair, at most 36 with F(4x4)).
OurTensors our_tensors(const Conv2dDesc& d, Algorithm algorithm) {
  const int64_t taps = algorithm == Algorithm::winograd ? 36 : d.kernel_h * d.kernel_w;
  return {random_buffer(d.batch * d.in_channels * d.in_h * d.in_w, 1),
          random_buffer(d.out_channels * d.in_channels_per_group() * taps, 2),
          random_buffer(d.out_channels, 3), random_buffer(d.batch * d.out_channels * d.out_h() * d.out_w(), 4)};
}

// ---------------------------------------------------------------------------------------
// oneDNN side

// oneDNN's eltwise post-op for the activations the layers use.
struct OneDnnActivation {
  dnnl::algorithm algorithm;
  float alpha;  ///< swish: the factor inside its sigmoid; relu: the negative slope
};

OneDnnActivation onednn_activation(Activation activation) {
  if (activation == Activation::Silu) return {dnnl::algorithm::eltwise_swish, 1.0F};
  return {dnnl::algorithm::eltwise_relu, 0.0F};
}

class OneDnnConv {
 public:
  OneDnnConv(const Conv2dDesc& d, dnnl::algorithm algorithm) : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const dnnl::memory::dims src{d.batch, d.in_channels, d.in_h, d.in_w};
    const dnnl::memory::dims dst{d.batch, d.out_channels, d.out_h(), d.out_w()};
    const dnnl::memory::dims weights =
        d.groups == 1 ? dnnl::memory::dims{d.out_channels, d.in_channels, d.kernel_h, d.kernel_w}
                      : dnnl::memory::dims{d.groups, d.out_channels_per_group(), d.in_channels_per_group(),
                                           d.kernel_h, d.kernel_w};
    const dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, algorithm, {src, dt::f32, tag::any},
        {weights, dt::f32, tag::any}, {{d.out_channels}, dt::f32, tag::x}, {dst, dt::f32, tag::any},
        {d.stride_h, d.stride_w}, {d.dilation_h - 1, d.dilation_w - 1}, {d.pad_top, d.pad_left},
        {d.pad_bottom, d.pad_right});
    dnnl::post_ops post_ops;
    const OneDnnActivation activation = onednn_activation(d.epilogue.activation);
    post_ops.append_eltwise(1.0F, activation.algorithm, activation.alpha, 0.0F);
    dnnl::primitive_attr attr;
    attr.set_post_ops(post_ops);
    const dnnl::convolution_forward::primitive_desc pd(desc, attr, engine_);
    implementation_ = pd.impl_info_str();
    src_ = filled(pd.src_desc(), 5);
    bias_ = filled(pd.bias_desc(), 6);
    dst_ = dnnl::memory(pd.dst_desc(), engine_);
    weights_ = reordered_weights(pd.weights_desc(), {weights, dt::f32, d.groups == 1 ? tag::oihw : tag::goihw});
    primitive_ = dnnl::convolution_forward(pd);
  }

  void run() {
    primitive_.execute(stream_, {{DNNL_ARG_SRC, src_}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_BIAS, bias_},
                                 {DNNL_ARG_DST, dst_}});
    stream_.wait();
  }
  [[nodiscard]] const std::string& implementation() const { return implementation_; }

 private:
  dnnl::memory filled(const dnnl::memory::desc& desc, unsigned seed) {
    dnnl::memory memory(desc, engine_);
    const Buffer values = random_buffer(static_cast<int64_t>(desc.get_size() / 4), seed);
    std::copy_n(values.get(), desc.get_size() / 4, static_cast<float*>(memory.get_data_handle()));
    return memory;
  }

  // Weights arrive in plain OIHW and are reordered once, ahead of the timed runs.
  dnnl::memory reordered_weights(const dnnl::memory::desc& blocked, const dnnl::memory::desc& plain) {
    dnnl::memory source = filled(plain, 7);
    dnnl::memory target(blocked, engine_);
    dnnl::reorder(source, target).execute(stream_, source, target);
    stream_.wait();
    return target;
  }

  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::memory src_, weights_, bias_, dst_;
  dnnl::convolution_forward primitive_;
  std::string implementation_;
};

// ---------------------------------------------------------------------------------------
// One benchmark per layer

struct LayerState {
  OurTensors tensors;
  Choice ours;
  int64_t schedules = 0;
  OneDnnConv onednn;
};

std::unique_ptr<LayerState> prepare(const Layer& layer) {
  const Conv2dDesc& d = layer.desc;
  OurTensors tensors = our_tensors(d, layer.algorithm);
  const KernelArgs args = tensors.args();
  if (d.is_depthwise()) {
    const auto schedules = depthwise_candidates(d);
    Choice choice = sweep(schedules, [&](const auto& s) { return compile_depthwise_conv2d(d, s); }, args);
    return std::make_unique<LayerState>(LayerState{std::move(tensors), choice, static_cast<int64_t>(schedules.size()),
                                                   OneDnnConv(d, dnnl::algorithm::convolution_direct)});
  }
  int64_t schedules = 0;
  if (layer.algorithm == Algorithm::winograd) {
    Choice choice = sweep_winograd(d, args, schedules);
    return std::make_unique<LayerState>(
        LayerState{std::move(tensors), choice, schedules, OneDnnConv(d, dnnl::algorithm::convolution_auto)});
  }
  Choice choice = sweep_conv2d(d, args, schedules);
  return std::make_unique<LayerState>(
      LayerState{std::move(tensors), choice, schedules, OneDnnConv(d, dnnl::algorithm::convolution_direct)});
}

LayerState& state_of(const Layer& layer) {
  static std::map<std::string, std::unique_ptr<LayerState>> states;
  auto& slot = states[layer.name];
  if (!slot) slot = prepare(layer);
  return *slot;
}

// Each iteration times one block of ours and one of oneDNN's, in alternating order (neither
// side always runs on the caches the other left), and keeps their ratio: on a shared host a
// burst of noise then spoils one pair, not the comparison, and the median pair ratio ignores it.
void bench_layer(benchmark::State& state, const Layer& layer) {
  LayerState& s = state_of(layer);
  const KernelArgs args = s.tensors.args();
  const auto ours = [&] { s.ours.kernel(args); };
  const auto theirs = [&] { s.onednn.run(); };
  const int block = std::max(1, static_cast<int>(kBlockSeconds / s.ours.seconds));
  std::vector<double> ours_blocks, onednn_blocks, pair_ratios;
  for (auto _ : state) {
    const bool ours_first = pair_ratios.size() % 2 == 0;
    const double before = ours_first ? 0.0 : seconds_of(theirs, block);
    const double mine = seconds_of(ours, block);
    const double other = ours_first ? seconds_of(theirs, block) : before;
    ours_blocks.push_back(mine);
    onednn_blocks.push_back(other);
    pair_ratios.push_back(other / mine);
    state.SetIterationTime(mine);
  }
  const double ours_seconds = median(ours_blocks) / block, onednn_seconds = median(onednn_blocks) / block;
  state.counters["ours_us"] = ours_seconds * 1e6;
  state.counters["onednn_us"] = onednn_seconds * 1e6;
  state.counters["ours_GFLOPS"] = layer.desc.flops() / ours_seconds * 1e-9;
  state.counters["onednn_GFLOPS"] = layer.desc.flops() / onednn_seconds * 1e-9;
  state.counters["ratio"] = median(pair_ratios);
  state.counters["compile_ms"] = s.ours.kernel.compile_ms();
  state.counters["schedules"] = static_cast<double>(s.schedules);
  state.counters["beside_GFLOPS"] = peak_beside_layer_gflops();
  state.SetLabel(s.ours.schedule + " | " + s.onednn.implementation());
}

// ---------------------------------------------------------------------------------------
// Summary of the medians

class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") medians_.push_back(run);
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    machine_peak().measure();
    for (const Family& family : families()) print_model(family.name + "/");
  }

 private:
  static double counter(const Run& run, const char* name) { return run.counters.at(name).value; }

  void print_model(const std::string& prefix) const {
    std::vector<const Run*> rows;
    for (const Run& run : medians_)
      if (run.run_name.function_name.rfind(prefix, 0) == 0) rows.push_back(&run);
    if (rows.empty()) return;
    int at_least_onednn = 0, in_slow_stretch = 0;
    double pct_sum = 0.0, beside_pct_sum = 0.0;
    const MachinePeak& peak = machine_peak();
    std::printf("\n%-44s %10s %10s %7s %8s %8s %9s  %s\n", (prefix + " (medians)").c_str(), "ours", "oneDNN", "ratio",
                "%peak", "%beside", "compile", "schedule");
    for (const Run* row : rows) {
      const Run& run = *row;
      const std::string& name = run.run_name.function_name;
      at_least_onednn += counter(run, "ratio") >= 1.0 ? 1 : 0;
      const double pct = 100.0 * counter(run, "ours_GFLOPS") / peak.fma_gflops;
      const double beside = counter(run, "beside_GFLOPS");
      const double beside_pct = 100.0 * counter(run, "ours_GFLOPS") / beside;
      const bool slow = beside < kSlowStretchShare * peak.fma_gflops;
      in_slow_stretch += slow ? 1 : 0;
      pct_sum += pct;
      beside_pct_sum += beside_pct;
      std::printf("%-44s %10.1f %10.1f %7.2f %8.1f %7.1f%s %7.1fms  %s\n", name.substr(prefix.size()).c_str(),
                  counter(run, "ours_GFLOPS"), counter(run, "onednn_GFLOPS"), counter(run, "ratio"), pct, beside_pct,
                  slow ? "*" : " ", counter(run, "compile_ms"), run.report_label.c_str());
    }
    const auto layers = static_cast<int>(rows.size());
    const double mean_pct = pct_sum / layers;
    std::printf("%s layers at >= oneDNN speed: %d / %d; average %.1f%% of the %.0f GFLOPS FMA peak "
                "(%.1f%% of the %.0f GFLOPS FMA + add peak)\n",
                prefix.c_str(), at_least_onednn, layers, mean_pct, peak.fma_gflops,
                mean_pct * peak.fma_gflops / peak.fma_and_add_gflops, peak.fma_and_add_gflops);
    std::printf("%s average %.1f%% of the peak probed beside each layer (the probe's median run after each "
                "repetition); %d of %d layers (*) timed while it ran below %.0f%% of the peak, in a slow stretch\n",
                prefix.c_str(), beside_pct_sum / layers, in_slow_stretch, layers, 100.0 * kSlowStretchShare);
  }

  std::vector<Run> medians_;
};

void register_layers(const std::string& model, const std::vector<Layer>& layers) {
  for (const Layer& layer : layers)
    benchmark::RegisterBenchmark((model + "/" + layer.name).c_str(), bench_layer, layer)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(0.2)
        ->Repetitions(5)
        ->ReportAggregatesOnly(true);
}

}  // namespace

int main(int argc, char** argv) {
  for (const Family& family : families()) register_layers(family.name, family.layers);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  machine_peak().measure();
  std::printf("host: %s, %d fp32 lanes, %d OpenMP threads; peak before the layers %.1f GFLOPS FMA, %.1f FMA + add\n",
              host_info().cpu_name.c_str(), host_info().vector_lanes, omp_get_max_threads(),
              machine_peak().fma_gflops, machine_peak().fma_and_add_gflops);
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
