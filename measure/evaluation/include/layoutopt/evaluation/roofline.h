#pragma once
// The roofline: the least time a network can take on this host when every step is held to
// whichever of its two ceilings binds, its FLOPs at the measured FMA peak or the bytes it
// moves at the measured read bandwidth (timing/memory_bandwidth.h). A step moves the weights
// it reads (a Winograd conv its transformed ones, up to 64/9 as many: on small maps they bind)
// and its input and output activations, in their element type; the network's
// roofline is the sum over its steps, each at its own ceiling, so a memory-bound dense layer
// does not hide behind the network's total FLOPs.
//
// Steps that run without moving data (views: flatten, reshape, identity, dropout; a concat
// whose inputs were written in place) count nothing. Activations are counted at the memory
// bandwidth even where a schedule keeps them in cache, so a run may beat its roofline on
// layers whose operands fit the caches; the compute part alone (the compute limit,
// compute_limit.h) is never beaten.

#include <map>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/timing/memory_bandwidth.h"
#include "layoutopt/timing/peak_flops.h"

namespace layoutopt::evaluation {

/// One node's two floors.
struct StepFloor {
  graph::NodeId node = 0;
  std::string type;       ///< the operator ("conv2d", "depthwise_conv2d", "dense", "max_pool2d", ...)
  double compute_ms = 0;  ///< executed FLOPs at the peak
  double memory_ms = 0;   ///< weight and activation bytes at the bandwidth

  [[nodiscard]] double floor_ms() const;
  [[nodiscard]] bool memory_bound() const { return memory_ms > compute_ms; }
};

/// The floors of one operator's steps added up.
struct StepTypeFloor {
  std::string type;
  int steps = 0;
  double floor_ms = 0;
  double memory_bound_ms = 0;  ///< the part of floor_ms from memory-bound steps
  double measured_ms = 0;      ///< the same steps in a profiled run (0: none given)

  /// How close the steps ran to their floors: 1 is every one at its ceiling (0: not measured).
  [[nodiscard]] double fraction() const { return measured_ms > 0 ? floor_ms / measured_ms : 0.0; }
};

/// One step's floor beside its time in a profiled run: where a run loses most to its roofline.
struct StepLoss {
  StepFloor floor;
  double measured_ms = 0;

  /// Time above the floor.
  [[nodiscard]] double lost_ms() const { return measured_ms - floor.floor_ms(); }
  /// The floor over the measured time: 1 is the step at its ceiling.
  [[nodiscard]] double fraction() const { return measured_ms > 0 ? floor.floor_ms() / measured_ms : 0.0; }
};

struct Roofline {
  std::vector<StepFloor> steps;  ///< one per node that moves data, in graph order
  double peak_gflops = 0;
  double bandwidth_gbps = 0;  ///< read bandwidth, fastest run
  int threads = 0;

  /// Each step at its binding ceiling, summed.
  [[nodiscard]] double floor_ms() const;
  /// The part of floor_ms from memory-bound steps.
  [[nodiscard]] double memory_bound_ms() const;
  /// The roofline over a run's time: 1 is every step at its ceiling.
  [[nodiscard]] double fraction_of(double run_ms) const;
  /// Per operator, the largest floor first, each with its steps' time in `measured_ms_by_node`
  /// (a profiled run's node steps, StepProfile::node_ms) when given.
  [[nodiscard]] std::vector<StepTypeFloor> types(const std::map<graph::NodeId, double>& measured_ms_by_node = {}) const;
  /// The `count` steps that lose most time to their floors in a profiled run
  /// (StepProfile::node_ms), the largest loss first: where a kernel has most to gain.
  [[nodiscard]] std::vector<StepLoss> largest_losses(const std::map<graph::NodeId, double>& measured_ms_by_node,
                                                     size_t count) const;
  /// "at least 21.3 ms, each step at the FMA peak (436 GFLOPS) or the read bandwidth
  /// (18.2 GB/s) on 2 threads, whichever binds; 4.1 ms of it memory-bound"
  [[nodiscard]] std::string summary() const;
};

/// The roofline of `graph` as `plan` runs it (null: as the untuned default runs it, see
/// executed_flops). The plan must fit the graph (validate_plan).
[[nodiscard]] Roofline roofline(const graph::Graph& graph, const planning::Plan* plan, const timing::PeakFlops& peak,
                                const timing::MemoryBandwidth& bandwidth);

}  // namespace layoutopt::evaluation
