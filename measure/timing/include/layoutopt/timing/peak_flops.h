#pragma once
// Peak fp32 throughput of this machine: the roofline ceiling that kernel efficiencies are
// quoted against. Every OpenMP thread runs many independent FMA chains (more than FMA
// latency x FMA pipes, so the pipes never wait) on the widest vectors the CPU supports.

#include <string>

#include "layoutopt/timing/timing.h"

namespace layoutopt::timing {

struct PeakFlops {
  /// From the fastest run: a register-only kernel can only be slowed by interference
  /// (other processes, preemption), so the fastest run is the machine's capability.
  double gflops = 0;
  double median_gflops = 0;  ///< from the median run, for judging the noise
  /// Fastest run with independent add chains beside the FMA chains. CPUs whose adds have
  /// pipes of their own (AMD Zen 4/5) exceed `gflops` here, and spec sheets quote this
  /// figure; convolutions and matrix products are all FMA and cannot reach it.
  double fma_and_add_gflops = 0;
  int threads = 0;           ///< threads that ran FMA chains
  std::string isa;           ///< "avx512f", "avx2+fma" or "baseline" (SSE2 mul + add)
  int chains = 0;            ///< independent accumulators per thread
  int lanes = 0;             ///< floats per accumulator
  Timing timing;
};

/// Warm-up long enough for AVX-512 frequency transitions, >= 10 runs and >= 200 ms, on
/// `threads` OpenMP threads (0: the current setting).
TimingPolicy peak_flops_policy(int threads = 0);

/// Runs the FMA-only and the FMA + add microbenchmarks, each under `policy` (its thread count
/// applies; flushing is pointless for a register-only kernel and is ignored). Counts 2 flops
/// per FMA and 1 per add, per lane.
PeakFlops measure_peak_flops(const TimingPolicy& policy = peak_flops_policy());

/// The faster of two peak measurements (the second where their team sizes differ). Measure
/// once before and once after a long timing and keep this: interference only slows the probe,
/// and a probe that fell in a slow spell put a whole network at 149% of its compute limit.
PeakFlops faster_peak(const PeakFlops& first, const PeakFlops& second);

}  // namespace layoutopt::timing
