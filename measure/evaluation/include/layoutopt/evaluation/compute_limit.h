#pragma once
// The compute limit: the least time a network's arithmetic can take on this host, its
// convolutions' and dense layers' FLOPs (2 per multiply-add) at the measured FMA peak
// (timing/peak_flops.h). Every other step (transforms, pools, activations) is memory-bound and
// not counted, so no schedule beats the limit, and a run's fraction of it says how much is
// left to gain: a figure is read against physics as well as against a peer.
//
// A network counts what its kernels execute: a conv its plan runs as Winograd counts its
// batched product (kernels::winograd_product_flops), not its direct FLOPs; without a plan, so
// do the convs the untuned default runs as Winograd (kernels::winograd_by_default), since a
// limit counted directly would be beaten by the default's own Winograd steps.

#include <cstdint>
#include <optional>
#include <string>

#include "layoutopt/graph/graph.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/timing/peak_flops.h"

namespace layoutopt::evaluation {

struct ComputeLimit {
  double direct_gflop = 0;    ///< every conv and dense computed directly
  double executed_gflop = 0;  ///< as the plan (or, without one, the untuned default) runs them
  int winograd_convs = 0;     ///< convs run as Winograd
  double peak_gflops = 0;     ///< the measured FMA peak on `threads` threads
  int threads = 0;

  /// executed_gflop at the peak.
  [[nodiscard]] double limit_ms() const;
  /// The limit over a run's time: 1 is the FMA peak.
  [[nodiscard]] double fraction_of(double run_ms) const;
  /// "3.64 GFLOP (direct) at 436 GFLOPS, the measured FMA peak on 2 threads: at least
  /// 8.35 ms", with "as run (3.64 direct; Winograd on 12 of the convs)" where any conv runs
  /// as Winograd.
  [[nodiscard]] std::string summary() const;
};

/// The FLOPs node `id` executes as `plan` runs it (null: as the untuned default runs it): 2 per
/// multiply-add, a Winograd conv its batched product.
[[nodiscard]] double executed_flops(const graph::Graph& graph, const planning::Plan* plan, graph::NodeId id);

/// The weight floats node `id`'s kernel reads per run where `plan` (null: the untuned default)
/// runs it as Winograd: its transformed weights, alpha^2 for every 3 x 3 the graph holds (16/9,
/// 4 or 64/9 as many); nothing where the node reads the graph's weights as they are.
[[nodiscard]] std::optional<int64_t> winograd_weight_floats(const graph::Graph& graph, const planning::Plan* plan,
                                                            graph::NodeId id);

/// The limit of `graph` as `plan` runs it (null: as the untuned default runs it), at `peak`.
/// A plan must fit the graph (validate_plan).
[[nodiscard]] ComputeLimit compute_limit(const graph::Graph& graph, const planning::Plan* plan,
                                         const timing::PeakFlops& peak);

}  // namespace layoutopt::evaluation
