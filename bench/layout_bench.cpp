// Layout transforms on ResNet-50 activation shapes: layoutopt's LayoutTransform against a
// naive scalar loop (the peer). Column "GB" is a rate, GB/s of bytes moved (one read + one
// write per element).
// After the usual table, a summary prints the speed-up over the naive loop per case.
//
//   bench_layout --benchmark_min_time=0.2

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "layoutopt/layout/transform.h"
#include "layoutopt/timing/random_fill.h"
#include "layoutopt/timing/thread_scope.h"

namespace {

using layoutopt::layout::Layout;
using layoutopt::layout::LayoutTransform;

struct Case {
  std::vector<int64_t> shape;  // N, C, H, W
  int64_t src_block;           // 1 = NCHW
  int64_t dst_block;
};

Layout blocked(int64_t block) { return block == 1 ? Layout::nchw() : Layout::nchwc(block); }

std::string case_name(const Case& c) {
  const auto& s = c.shape;
  return blocked(c.src_block).str() + "->" + blocked(c.dst_block).str() + "/" + std::to_string(s[0]) + "x" +
         std::to_string(s[1]) + "x" + std::to_string(s[2]) + "x" + std::to_string(s[3]);
}

// The peer: what one writes without thinking about memory, walking dst in order and
// computing each source index from the NCHW[x]c formula.
void naive_reblock(const Case& c, const float* src, float* dst) {
  const int64_t N = c.shape[0], C = c.shape[1], S = c.shape[2] * c.shape[3];
  const int64_t bs = c.src_block, bd = c.dst_block;
  int64_t out = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t cb = 0; cb < C / bd; ++cb)
      for (int64_t s = 0; s < S; ++s)
        for (int64_t j = 0; j < bd; ++j) {
          const int64_t ch = cb * bd + j;
          dst[out++] = src[((n * (C / bs) + ch / bs) * S + s) * bs + ch % bs];
        }
}

struct Buffers {
  std::vector<float> src, dst;
  explicit Buffers(int64_t elements) : src(static_cast<size_t>(elements)), dst(static_cast<size_t>(elements)) {
    // Real numbers in both buffers, and every page touched before timing starts.
    layoutopt::timing::fill_random(src, 1);
    layoutopt::timing::fill_random(dst, 2);
  }
};

void report_rate(benchmark::State& state, int64_t bytes_per_run) {
  state.counters["GB"] = benchmark::Counter(
      static_cast<double>(bytes_per_run) * 1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void bench_layoutopt(benchmark::State& state, const Case& c, int threads) {
  const LayoutTransform transform =
      LayoutTransform::for_activation(c.shape, blocked(c.src_block), blocked(c.dst_block));
  Buffers buffers(transform.elements());
  const layoutopt::timing::ThreadScope scope(threads);
  for (auto _ : state) {
    transform.run(buffers.src.data(), buffers.dst.data());
    benchmark::DoNotOptimize(buffers.dst.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(layoutopt::layout::to_string(transform.path())));
  report_rate(state, transform.bytes_moved());
}

void bench_naive(benchmark::State& state, const Case& c) {
  const int64_t elements = c.shape[0] * c.shape[1] * c.shape[2] * c.shape[3];
  Buffers buffers(elements);
  for (auto _ : state) {
    naive_reblock(c, buffers.src.data(), buffers.dst.data());
    benchmark::DoNotOptimize(buffers.dst.data());
    benchmark::ClobberMemory();
  }
  report_rate(state, 2 * elements * int64_t{sizeof(float)});
}

// Prints, after the normal output, each case's naive time divided by layoutopt's.
class SpeedupReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      // With --benchmark_repetitions the median aggregate follows the single runs and wins.
      const bool usable = run.run_type == Run::RT_Iteration || run.aggregate_name == "median";
      const std::string& name = run.run_name.function_name;  // "<case>/<variant>"
      const size_t slash = name.rfind('/');
      if (usable && slash != std::string::npos)
        times_[name.substr(0, slash)][name.substr(slash + 1)] = run.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    std::printf("\nspeed-up over the naive scalar loop (naive time / layoutopt time)\n");
    std::printf("%-36s %12s %12s\n", "case", "1 thread", "all threads");
    for (const auto& [name, variants] : times_) {
      if (!variants.contains("naive")) continue;
      const double naive = variants.at("naive");
      std::printf("%-36s", name.c_str());
      for (const char* variant : {"layoutopt_1t", "layoutopt_all"})
        std::printf(" %11.1fx", variants.contains(variant) ? naive / variants.at(variant) : 0.0);
      std::printf("\n");
    }
    ConsoleReporter::Finalize();
  }

 private:
  std::map<std::string, std::map<std::string, double>> times_;
};

void register_cases() {
  const std::vector<std::vector<int64_t>> shapes{{1, 64, 56, 56}, {1, 256, 56, 56}, {1, 512, 28, 28}, {1, 2048, 7, 7}};
  // 16 -> 16 is a plain parallel copy: the bandwidth ceiling the other cases approach.
  const std::vector<std::pair<int64_t, int64_t>> blocks{{1, 16}, {16, 1}, {8, 16}, {16, 8}, {16, 16}};
  const int all_threads = omp_get_max_threads();
  for (const auto& [from, to] : blocks)
    for (const auto& shape : shapes) {
      const Case c{shape, from, to};
      const std::string name = case_name(c);
      benchmark::RegisterBenchmark((name + "/layoutopt_1t").c_str(), bench_layoutopt, c, 1)->UseRealTime();
      benchmark::RegisterBenchmark((name + "/layoutopt_all").c_str(), bench_layoutopt, c, all_threads)->UseRealTime();
      benchmark::RegisterBenchmark((name + "/naive").c_str(), bench_naive, c)->UseRealTime();
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_cases();
  SpeedupReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
