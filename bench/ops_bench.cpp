// Memory-bound operators on ResNet-50 shapes, NCHW16c against plain NCHW (block 1): max
// pooling (stem), global average pooling, the residual add and a two-way channel concat.
// Reports GB/s of compulsory traffic (every input read once, every output written once).
// On a loaded machine, OMP_NUM_THREADS=1 gives the steadier per-core numbers.
//
//   build-ops/bench/bench_ops
//   build-ops/bench/bench_ops --benchmark_filter=maxpool

#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layoutopt/kernels/concat.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/global_avg_pool.h"
#include "layoutopt/kernels/pool2d.h"

namespace {

using namespace layoutopt::kernels;

std::vector<float> buffer(int64_t elements) { return std::vector<float>(static_cast<size_t>(elements), 0.5F); }

// One benchmarked operator: its run and its compulsory bytes.
struct Workload {
  std::function<void()> run;
  double bytes = 0.0;
};

void bench(benchmark::State& state, const std::function<Workload()>& make) {
  const Workload workload = make();
  for (auto _ : state) workload.run();
  // A rate counter divides by the elapsed time: printed as "GB=<n>/s".
  state.counters["GB"] =
      benchmark::Counter(workload.bytes * 1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

double bytes_of(int64_t elements) { return 4.0 * static_cast<double>(elements); }

// ResNet-50 stem: 3x3 stride 2 pad 1 max pool, 64 x 112 x 112 -> 56 x 56.
Workload max_pool(int64_t block) {
  Pool2dDesc d;
  d.input = {1, 64, 112, 112, block};
  d.kernel_h = d.kernel_w = 3, d.stride_h = d.stride_w = 2;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
  d.out_h = d.out_w = 56;
  const Kernel kernel = compile_pool2d(d, pool2d_default_schedule(d));
  auto in = std::make_shared<std::vector<float>>(buffer(d.input.elements()));
  auto out = std::make_shared<std::vector<float>>(buffer(d.output().elements()));
  return {[=] { kernel({.input = in->data(), .output = out->data()}); },
          bytes_of(d.input.elements() + d.output().elements())};
}

// Before the classifier: 2048 x 7 x 7 -> 2048.
Workload global_pool(int64_t block) {
  const TensorDesc d{1, 2048, 7, 7, block};
  const Kernel kernel = compile_global_avg_pool(d);
  auto in = std::make_shared<std::vector<float>>(buffer(d.elements()));
  auto out = std::make_shared<std::vector<float>>(buffer(2048));
  return {[=] { kernel({.input = in->data(), .output = out->data()}); }, bytes_of(d.elements() + 2048)};
}

// Unfused residual add of a conv2_x bottleneck: 256 x 56 x 56, in place.
Workload residual_add(int64_t block) {
  const ElementwiseBinaryDesc d{{1, 256, 56, 56, block}, BinaryOp::add};
  const Kernel kernel = compile_elementwise_binary(d, {});
  auto in = std::make_shared<std::vector<float>>(buffer(d.tensor.elements()));
  auto inout = std::make_shared<std::vector<float>>(buffer(d.tensor.elements()));
  return {[=] { kernel({.input = in->data(), .residual = inout->data(), .output = inout->data()}); },
          bytes_of(3 * d.tensor.elements())};
}

// Two conv3_x-sized tensors joined along channels: 2 x 256 x 28 x 28 -> 512 x 28 x 28.
Workload concat(int64_t block) {
  const ConcatDesc d{{{1, 256, 28, 28, block}, {1, 256, 28, 28, block}}, block};
  const std::vector<Kernel> kernels = compile_concat(d);
  auto a = std::make_shared<std::vector<float>>(buffer(d.inputs[0].elements()));
  auto b = std::make_shared<std::vector<float>>(buffer(d.inputs[1].elements()));
  auto out = std::make_shared<std::vector<float>>(buffer(d.output().elements()));
  return {[=] {
            const float* inputs[] = {a->data(), b->data()};
            run_concat(kernels, inputs, out->data());
          },
          bytes_of(2 * d.output().elements())};
}

void register_all() {
  const std::vector<std::pair<std::string, Workload (*)(int64_t)>> workloads = {
      {"maxpool_3x3s2_c64_112", max_pool},
      {"global_avg_pool_c2048_7", global_pool},
      {"add_c256_56", residual_add},
      {"concat_2x256_28", concat}};
  for (const auto& [name, make] : workloads)
    for (int64_t block : {16, 1}) {
      const std::string layout = block == 1 ? "NCHW" : "NCHW" + std::to_string(block) + "c";
      benchmark::RegisterBenchmark((name + "/" + layout).c_str(), bench, [make = make, block] { return make(block); })
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
