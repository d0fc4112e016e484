#include "layoutopt/timing/peak_flops.h"

#include <immintrin.h>
#include <omp.h>

#include <atomic>

#include "layoutopt/cpu/features.h"

namespace layoutopt::timing {

namespace {

// Rounds per thread and call: about a millisecond, far above timer resolution.
constexpr int64_t kIterations = int64_t{1} << 18;

// acc = acc * a + b with a just below 1 converges to b / (1 - a) = 1, and acc + b grows by
// under 0.03 per call: values stay normal, never overflow or go denormal, and no round can
// be skipped by the compiler.
constexpr float kMul = 0.9999999f;
constexpr float kAdd = 1e-7f;

// How many independent accumulators one round updates with an FMA and with an add.
struct ChainMix {
  int fma = 0;
  int add = 0;
};

struct PipeKernel {
  const char* isa;
  int lanes;
  ChainMix mix;
  float (*run)(int64_t iterations);  ///< returns a sum of the accumulators

  double flops_per_iteration() const { return lanes * (2.0 * mix.fma + mix.add); }
};

float sum_of(const float* values, int count) {
  float sum = 0;
  for (int i = 0; i < count; ++i) sum += values[i];
  return sum;
}

#if defined(__x86_64__)

// Register budgets: 2 FMA pipes x 4-cycle latency need only 8 FMA chains in flight and 2 add
// pipes x 3 cycles 6 add chains; the surplus absorbs longer latencies elsewhere. Chains plus
// the two constants fit the register file (32 zmm, 16 ymm), so nothing spills.
constexpr ChainMix kZmmFmaOnly{24, 0}, kZmmFmaAndAdd{14, 14};
constexpr ChainMix kYmmFmaOnly{12, 0}, kYmmFmaAndAdd{7, 7};

template <int kFma, int kAdds>
__attribute__((target("avx512f"))) float chains_avx512(int64_t iterations) {
  __m512 fma[kFma], add[kAdds > 0 ? kAdds : 1];
  for (int c = 0; c < kFma; ++c) fma[c] = _mm512_set1_ps(static_cast<float>(c) * 1e-3f);
  for (int c = 0; c < kAdds; ++c) add[c] = _mm512_set1_ps(static_cast<float>(c) * 1e-3f);
  const __m512 a = _mm512_set1_ps(kMul);
  const __m512 b = _mm512_set1_ps(kAdd);
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 32
    for (int c = 0; c < kFma; ++c) fma[c] = _mm512_fmadd_ps(fma[c], a, b);
#pragma GCC unroll 32
    for (int c = 0; c < kAdds; ++c) add[c] = _mm512_add_ps(add[c], b);
  }
  for (int c = 1; c < kFma; ++c) fma[0] = _mm512_add_ps(fma[0], fma[c]);
  for (int c = 0; c < kAdds; ++c) fma[0] = _mm512_add_ps(fma[0], add[c]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, fma[0]);
  return sum_of(lanes, 16);
}

template <int kFma, int kAdds>
__attribute__((target("avx2,fma"))) float chains_avx2(int64_t iterations) {
  __m256 fma[kFma], add[kAdds > 0 ? kAdds : 1];
  for (int c = 0; c < kFma; ++c) fma[c] = _mm256_set1_ps(static_cast<float>(c) * 1e-3f);
  for (int c = 0; c < kAdds; ++c) add[c] = _mm256_set1_ps(static_cast<float>(c) * 1e-3f);
  const __m256 a = _mm256_set1_ps(kMul);
  const __m256 b = _mm256_set1_ps(kAdd);
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int c = 0; c < kFma; ++c) fma[c] = _mm256_fmadd_ps(fma[c], a, b);
#pragma GCC unroll 16
    for (int c = 0; c < kAdds; ++c) add[c] = _mm256_add_ps(add[c], b);
  }
  for (int c = 1; c < kFma; ++c) fma[0] = _mm256_add_ps(fma[0], fma[c]);
  for (int c = 0; c < kAdds; ++c) fma[0] = _mm256_add_ps(fma[0], add[c]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, fma[0]);
  return sum_of(lanes, 8);
}

#endif

// Portable fallback: plain multiply-add chains the compiler vectorises for the baseline ISA
// (SSE2 has no FMA, so the two variants differ only in their extra add chains).
constexpr ChainMix kScalarFmaOnly{32, 0}, kScalarFmaAndAdd{32, 16};

template <int kFma, int kAdds>
float chains_baseline(int64_t iterations) {
  float fma[kFma], add[kAdds > 0 ? kAdds : 1] = {};
  for (int c = 0; c < kFma; ++c) fma[c] = static_cast<float>(c) * 1e-3f;
  for (int64_t i = 0; i < iterations; ++i) {
    for (float& value : fma) value = value * kMul + kAdd;
    for (int c = 0; c < kAdds; ++c) add[c] += kAdd;
  }
  return sum_of(fma, kFma) + sum_of(add, kAdds);
}

// The widest kernel pair this CPU runs: FMA chains alone, and FMA plus add chains.
struct KernelPair {
  PipeKernel fma_only, fma_and_add;
};

KernelPair pick_kernels() {
#if defined(__x86_64__)
  if (cpu::has_feature("avx512f"))
    return {{"avx512f", 16, kZmmFmaOnly, chains_avx512<kZmmFmaOnly.fma, kZmmFmaOnly.add>},
            {"avx512f", 16, kZmmFmaAndAdd, chains_avx512<kZmmFmaAndAdd.fma, kZmmFmaAndAdd.add>}};
  if (cpu::has_feature("avx2") && cpu::has_feature("fma"))
    return {{"avx2+fma", 8, kYmmFmaOnly, chains_avx2<kYmmFmaOnly.fma, kYmmFmaOnly.add>},
            {"avx2+fma", 8, kYmmFmaAndAdd, chains_avx2<kYmmFmaAndAdd.fma, kYmmFmaAndAdd.add>}};
#endif
  return {{"baseline", 1, kScalarFmaOnly, chains_baseline<kScalarFmaOnly.fma, kScalarFmaOnly.add>},
          {"baseline", 1, kScalarFmaAndAdd, chains_baseline<kScalarFmaAndAdd.fma, kScalarFmaAndAdd.add>}};
}

// Keeps the accumulators observable so the loops cannot be optimised away.
std::atomic<float> g_sink{0};

struct KernelRate {
  Timing timing;
  int team = 0;
  double fastest_gflops = 0;
  double median_gflops = 0;
};

KernelRate time_kernel(const PipeKernel& kernel, const TimingPolicy& policy) {
  TimingPolicy register_only = policy;
  register_only.flush_cache = false;
  KernelRate rate;
  rate.timing = time_runs(register_only, [&] {
    float total = 0;
#pragma omp parallel reduction(+ : total)
    {
#pragma omp single
      rate.team = omp_get_num_threads();
      total += kernel.run(kIterations);
    }
    g_sink.store(total, std::memory_order_relaxed);
  });
  const double flops_per_run = static_cast<double>(rate.team) * static_cast<double>(kIterations) *
                               kernel.flops_per_iteration();
  rate.fastest_gflops = flops_per_run / (rate.timing.ms.min * 1e6);
  rate.median_gflops = flops_per_run / (rate.timing.ms.median * 1e6);
  return rate;
}

}  // namespace

TimingPolicy peak_flops_policy(int threads) {
  TimingPolicy policy;
  policy.threads = threads;
  policy.warmup_runs = 20;
  policy.min_repeats = 10;
  policy.min_repeat_ms = 200;
  return policy;
}

PeakFlops measure_peak_flops(const TimingPolicy& policy) {
  const KernelPair kernels = pick_kernels();
  const KernelRate fma = time_kernel(kernels.fma_only, policy);
  const KernelRate fma_and_add = time_kernel(kernels.fma_and_add, policy);
  return {fma.fastest_gflops,
          fma.median_gflops,
          fma_and_add.fastest_gflops,
          fma.team,
          kernels.fma_only.isa,
          kernels.fma_only.mix.fma,
          kernels.fma_only.lanes,
          fma.timing};
}

PeakFlops faster_peak(const PeakFlops& first, const PeakFlops& second) {
  // Teams of different sizes (OMP_DYNAMIC) are not one machine's peak: keep the later probe.
  if (first.threads != second.threads) return second;
  return second.gflops > first.gflops ? second : first;
}

}  // namespace layoutopt::timing
