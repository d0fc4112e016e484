#include "layoutopt/measure/peak_flops.h"

#include <immintrin.h>
#include <omp.h>

#include <atomic>

namespace layoutopt::measure {

namespace {

// FMA iterations per thread and call: about a millisecond, far above timer resolution.
constexpr int64_t kIterations = int64_t{1} << 18;

// acc = acc * a + b with a just below 1 converges to b / (1 - a) = 1: values stay normal,
// never overflow or go denormal, and no iteration can be skipped by the compiler.
constexpr float kMul = 0.9999999f;
constexpr float kAdd = 1e-7f;

struct FmaKernel {
  const char* isa;
  int chains;
  int lanes;
  float (*run)(int64_t iterations);  ///< returns a sum of the accumulators
};

float sum_of(const float* values, int count) {
  float sum = 0;
  for (int i = 0; i < count; ++i) sum += values[i];
  return sum;
}

#if defined(__x86_64__)

// 24 of the 32 zmm registers: 2 FMA pipes x 4-cycle latency need only 8 chains in flight;
// the surplus absorbs longer latencies on other cores without spilling.
constexpr int kZmmChains = 24;
__attribute__((target("avx512f"))) float fma_chains_avx512(int64_t iterations) {
  __m512 acc[kZmmChains];
  for (int c = 0; c < kZmmChains; ++c) acc[c] = _mm512_set1_ps(static_cast<float>(c) * 1e-3f);
  const __m512 a = _mm512_set1_ps(kMul);
  const __m512 b = _mm512_set1_ps(kAdd);
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 24
    for (int c = 0; c < kZmmChains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], a, b);
  }
  for (int c = 1; c < kZmmChains; ++c) acc[0] = _mm512_add_ps(acc[0], acc[c]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, acc[0]);
  return sum_of(lanes, 16);
}

// 12 of the 16 ymm registers, leaving room for the two constants.
constexpr int kYmmChains = 12;
__attribute__((target("avx2,fma"))) float fma_chains_avx2(int64_t iterations) {
  __m256 acc[kYmmChains];
  for (int c = 0; c < kYmmChains; ++c) acc[c] = _mm256_set1_ps(static_cast<float>(c) * 1e-3f);
  const __m256 a = _mm256_set1_ps(kMul);
  const __m256 b = _mm256_set1_ps(kAdd);
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kYmmChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], a, b);
  }
  for (int c = 1; c < kYmmChains; ++c) acc[0] = _mm256_add_ps(acc[0], acc[c]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc[0]);
  return sum_of(lanes, 8);
}

#endif

// Portable fallback: plain multiply-add chains the compiler vectorises for the baseline ISA.
constexpr int kBaselineChains = 32;
float fma_chains_baseline(int64_t iterations) {
  float acc[kBaselineChains];
  for (int c = 0; c < kBaselineChains; ++c) acc[c] = static_cast<float>(c) * 1e-3f;
  for (int64_t i = 0; i < iterations; ++i)
    for (float& value : acc) value = value * kMul + kAdd;
  return sum_of(acc, kBaselineChains);
}

FmaKernel pick_kernel() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return {"avx512f", kZmmChains, 16, fma_chains_avx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {"avx2+fma", kYmmChains, 8, fma_chains_avx2};
#endif
  return {"baseline", kBaselineChains, 1, fma_chains_baseline};
}

// Keeps the accumulators observable so the loops cannot be optimised away.
std::atomic<float> g_sink{0};

}  // namespace

TimingPolicy peak_flops_policy() {
  TimingPolicy policy;
  policy.warmup_runs = 20;
  policy.min_repeats = 10;
  policy.min_repeat_ms = 200;
  return policy;
}

PeakFlops measure_peak_flops(const TimingPolicy& policy) {
  const FmaKernel kernel = pick_kernel();
  TimingPolicy register_only = policy;
  register_only.flush_cache = false;
  int team = 0;
  const Timing timing = time_runs(register_only, [&] {
    float total = 0;
#pragma omp parallel reduction(+ : total)
    {
#pragma omp single
      team = omp_get_num_threads();
      total += kernel.run(kIterations);
    }
    g_sink.store(total, std::memory_order_relaxed);
  });
  const double flops_per_run =
      2.0 * static_cast<double>(team) * static_cast<double>(kIterations) * kernel.chains * kernel.lanes;
  return {flops_per_run / (timing.ms.min * 1e6),
          flops_per_run / (timing.ms.median * 1e6),
          team,
          kernel.isa,
          kernel.chains,
          kernel.lanes,
          timing};
}

}  // namespace layoutopt::measure
