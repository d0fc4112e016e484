#pragma once
// The timing policy behind every cost the graph solver adds up: kernel measurements during
// tuning and layout-transform timings use this one policy, so a node cost and an edge cost
// mean the same thing (median of warm runs at a fixed thread count).
//
// Preemption guard: on an oversubscribed machine an OpenMP region whose thread is
// descheduled waits at the barrier for a scheduler time slice; when that hits most runs,
// the median is a time slice (~5-10 ms), not the operator. A timing whose median exceeds
// twice its fastest run is such a case: it is repeated (at most 3 timings in all) and the
// one with the lowest median is kept.

#include <functional>

#include "layoutopt/timing/timing.h"

namespace layoutopt::timing {

/// 2 warm-up runs, at least 5 timed runs and `min_repeat_ms` of timed runs (at most
/// kCostMaxRepeats), on `threads` OpenMP threads (0 = default), with kInNetworkFlushBytes
/// written before every run.
/// Kernels with weights also cycle through cold_weight_copies of them (see below), and
/// kernels and transforms find their activation inputs where a network's previous step
/// left them, each thread's rows in its own core's cache, and multi-stage kernels find their
/// intermediates in memory, not in any cache (both in activation_placement.h).
///
/// Why the flush: timed alone, run after run, a kernel finds its weights and tensors in L1 /
/// L2; inside a network the layers before it have replaced them, and it finds them in the
/// last-level cache at best, so summed isolated times predict a network too fast. Evicting
/// the private caches (but not the last-level cache, which a network's working set largely
/// fits) before each run brings the sum close to the measured network. Evidence:
/// docs/design/cold-weights.md.
[[nodiscard]] TimingPolicy cost_policy(int threads, double min_repeat_ms = 20.0);

/// Why a cap on repeats: the flush and the placing of the inputs before each run cost about
/// 0.1 ms, more than a small transform or a late 1x1 conv takes, so reaching
/// `min_repeat_ms` with a 2 us body would spend a second on flushes. A median of 200 runs is
/// already steadier than the host's own drift between timings.
inline constexpr int kCostMaxRepeats = 200;

/// Bytes written between cost timings: twice the private L2 of two cores of current x86
/// server parts (1-2 MiB each); far below their last-level caches.
inline constexpr size_t kInNetworkFlushBytes = size_t{4} << 20;

/// Why cold weights: a network's weights rarely fit the last-level cache (resnet-50's are
/// 102 MB), so between two runs of a layer the other layers' weights evict its own and every
/// run streams them from memory, at a cost that differs between schedules. A kernel timed
/// with one weight tensor finds it in the last-level cache after the first run. So kernels
/// are timed cycling through copies of their weights that together span
/// cold_weight_bytes(): each run reads weights no recent run touched.
///
/// The span is twice the last-level cache the CPU reports (default_flush_bytes), at least
/// 64 MiB: a fixed span stays cached on a host whose last-level cache is larger. Evidence:
/// docs/design/cold-weights.md.
[[nodiscard]] size_t cold_weight_bytes();

/// Copies of a `weight_bytes` tensor that span cold_weight_bytes() (at least 1).
[[nodiscard]] int64_t cold_weight_copies(size_t weight_bytes);

/// Names this policy in target strings (layoutopt/tuning/target.h), so records and transform
/// tables timed under an earlier policy are told apart instead of mixing in. Earlier names
/// and what each meant: docs/design/record-compatibility.md.
inline constexpr const char* kCostPolicyName = "cold-weights-2xllc-cold-scratch-placed-rows";

/// Times `body` with time_runs under `policy` (and its `prepare`), with the preemption guard
/// above.
[[nodiscard]] Timing time_cost(const TimingPolicy& policy, const std::function<void()>& body,
                               const std::function<void()>& prepare = {});

}  // namespace layoutopt::timing
