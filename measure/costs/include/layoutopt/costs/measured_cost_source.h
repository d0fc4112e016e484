#pragma once
// MeasuredCostSource: the CostSource of real runs on this machine, a pure lookup in
// measurements taken before it is built.
//
//  - conv2d / depthwise / grouped conv / dense: the best tuned config of the node's task per
//    distinct (input layout, output layout) pair, read from a tuning record log with the
//    tuner's own functions (summarize_history), configs timed only once scaled by their
//    task's selection bias (selection_bias.h), a stale task's by its drift (repricing.h);
//    beside them the task's untuned default config (default_candidate). A task without
//    records is an error naming the node: run `layoutopt tune` first.
//  - layout-flexible ops (flexible_ops.h): every block they are offered in, at the time the
//    flexible-op table holds for the kernel they run there (flexible_op_timing.h).
//  - layout-rigid ops (flatten, reshape, transpose, softmax, ops on other ranks): one
//    canonical candidate, at the flexible-op table's time of the kernel it runs there
//    (canonical_op: norms, softmax, elementwise ops and slices on token tensors); 0 ms, not
//    timed, for views (flatten, reshape) and what runs as reference code.
//  - a node timed inside a compiled network (network_calibration.h): each of its candidates at
//    its price above times its in-network factor (repricing.h, InNetworkNode).
//  - transforms: the transform table's median time, or the time inside a compiled network once
//    one was measured there (the repricing's, from network_calibration.h); 0 when both
//    layouts place every element at the same offset. A missing entry is an error: run
//    `layoutopt bench-transforms`.
//
// Only the offered layouts (offered_layouts.h) are used: candidates with another layout are
// dropped before the solver sees them; a conv left without any is an error naming it.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/costs/flexible_op_timing.h"
#include "layoutopt/costs/repricing.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/planning/cost_source.h"
#include "layoutopt/tuning/layout_candidates.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::costs {

struct MeasuredCostOptions {
  std::string target;   ///< records and table entries of other targets are ignored
  int threads = 1;      ///< thread count of the table entries to use
  std::filesystem::path records_path = "tune.jsonl";     ///< for messages only
  std::filesystem::path table_path = "transforms.json";  ///< for messages only
  std::string model;  ///< MODEL as the user gave it, for messages; empty: the graph's name
};

/// The node candidate of one tuned config of a task: its layouts (plain layouts spelled
/// NCHW / NC), time, knobs as the label, and the config as its planning::TunedKernel, which
/// plan_schedule reads back. Its inputs are the data input's layout alone: callers lay out a
/// fused residual or input scale of the node with graph::tuned_input_layouts.
[[nodiscard]] planning::NodeCandidate tuned_candidate(const tuning::TuningTask& task, const tuning::LayoutCandidate& tuned);

/// What a measured source looks up besides the records, made once per graph and record log
/// before any source and left unchanged while sources are rebuilt from more records: each
/// must outlive every source built on it.
struct MeasuredTables {
  const TransformTable& transforms;
  const ShapeLayouts& offered;      ///< offered_layouts of the records the first source read
  const FlexibleOpTable& flexible;  ///< time_flexible_ops over `offered`
};

class MeasuredCostSource final : public planning::CostSource {
 public:
  /// Reads the tuned candidates of `graph`'s tasks from `records` once and prices them and
  /// the transforms by `repricing`; `graph` must outlive the source, which answers only for
  /// `graph`. Throws std::out_of_range for a stale task or a node the graph does not have,
  /// and what transform_ms throws for an in-network transform the table lacks.
  MeasuredCostSource(const graph::Graph& graph, const std::vector<tuning::MeasureRecord>& records,
                     const MeasuredTables& tables, MeasuredCostOptions options, Repricing repricing = {});

  /// A source of the same graph, tables and options over `records` (e.g. after configs were
  /// timed again), priced by `repricing`.
  [[nodiscard]] MeasuredCostSource rebuilt(const std::vector<tuning::MeasureRecord>& records, Repricing repricing) const;
  /// This source priced by `repricing` instead: the same records.
  [[nodiscard]] MeasuredCostSource repriced(Repricing repricing) const;

  [[nodiscard]] std::string name() const override { return "tuning records and transform table"; }
  /// Throws std::runtime_error naming the node for an untuned task, a node of another graph
  /// or a conv none of whose tuned layouts is offered, and std::logic_error naming it for a
  /// flexible kernel the flexible-op table lacks (it was timed for another graph or layouts).
  [[nodiscard]] std::vector<planning::NodeCandidate> candidates(const graph::Graph& graph, graph::NodeId id) const override;
  /// Throws std::runtime_error naming the shape and layouts for a missing table entry.
  [[nodiscard]] double transform_ms(const graph::Shape& shape, const layout::Layout& from,
                                    const layout::Layout& to) const override;

  /// Tasks of the graph with no record for the target (empty when everything is tuned).
  [[nodiscard]] const std::vector<tuning::TaskKey>& untuned_tasks() const { return untuned_; }
  /// The graph's tuning tasks (extract_tasks), whose records this source reads.
  [[nodiscard]] const std::vector<tuning::TuningTask>& tasks() const { return tasks_; }

  /// How this source departs from its records and table.
  [[nodiscard]] const Repricing& repricing() const { return repricing_; }
  /// What transforms not timed in a network are scaled by: the median ratio of in-network
  /// to table time over those that were (1 before any was).
  [[nodiscard]] double untimed_transform_factor() const { return untimed_factor_; }
  /// What node `id`'s candidates that never ran in a network are scaled by: the factor of
  /// the one that ran last (repricing.h), else 1.
  [[nodiscard]] double node_price_factor(graph::NodeId id) const override;
  /// What node `id`'s `candidate` is scaled by (InNetworkNode::factor_of).
  [[nodiscard]] double candidate_price_factor(graph::NodeId id, const CandidateId& candidate) const;

 private:
  /// The records' best config per layout pair of every task.
  [[nodiscard]] tuning::SessionResult summarize_records(const std::vector<tuning::MeasureRecord>& records) const;
  /// Prices the tuned candidates of known_ and the untimed transforms by repricing_: the last
  /// step of building a source.
  void price();
  /// Takes the tuned candidates from known_, stale tasks priced by repricing_.
  void read_summary();
  /// The untuned default config of `task` when it has a working timing, the task runs the
  /// default's algorithm and `kept` (its tuned candidates) lacks it: a candidate beside the
  /// cheapest of its layout pair. Why: isolated timings rank a task's configs, the network
  /// may not (docs/design/in-network-calibration.md); once calibration has timed the default
  /// plan in its network, the solver compares each node's default and tuned configs at their
  /// in-network times.
  [[nodiscard]] std::optional<tuning::LayoutCandidate> default_candidate(
      size_t task, const tuning::CandidatePricing& pricing, const std::vector<planning::NodeCandidate>& kept) const;
  [[nodiscard]] double untimed_factor() const;
  [[nodiscard]] MeasuredTables tables() const { return {*table_, *offered_, *flexible_}; }
  [[nodiscard]] std::vector<planning::NodeCandidate> tuned_candidates(const graph::Graph& graph, graph::NodeId id) const;
  [[nodiscard]] std::vector<planning::NodeCandidate> flexible_candidates(const graph::Graph& graph, graph::NodeId id) const;
  /// The flexible-op table's time for `candidate`'s kernel; throws std::logic_error naming
  /// the node when it is missing.
  [[nodiscard]] double flexible_ms(const graph::Graph& graph, graph::NodeId id,
                                   const planning::NodeCandidate& candidate) const;
  /// The table's time for `key`; throws std::runtime_error naming it when missing.
  [[nodiscard]] double table_ms(const TransformKey& key) const;
  [[nodiscard]] std::string model_spec() const;
  [[nodiscard]] std::string tune_hint() const;
  [[nodiscard]] std::string bench_hint() const;

  const graph::Graph* graph_;
  const TransformTable* table_;
  const ShapeLayouts* offered_;
  const FlexibleOpTable* flexible_;
  MeasuredCostOptions options_;
  std::vector<tuning::TuningTask> tasks_;
  std::map<graph::NodeId, std::vector<size_t>> tasks_of_;    // conv/dense node -> its algorithms' tasks
  std::vector<std::vector<planning::NodeCandidate>> tuned_;            // by task: best per layout pair, and the default
  tuning::SessionResult known_;                                     // the records' summary tuned_ was read from
  std::vector<tuning::TaskKey> untuned_;
  Repricing repricing_;
  double untimed_factor_ = 1.0;
};

}  // namespace layoutopt::costs
