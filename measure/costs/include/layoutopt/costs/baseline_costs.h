#pragma once
// The two baselines an end-to-end comparison shows next to the graph-tuned plan, written as
// CostSources over the measured one, so every row is planned, compiled and predicted the
// same way and differs only in what its nodes may choose:
//
//  - history best (TVM's "apply history best"): every conv / dense runs its single fastest
//    tuned kernel, whatever layout its neighbours want. Layout-flexible ops (pooling,
//    elementwise, concat) still choose, and transforms go wherever neighbours disagree.
//  - default: every conv / dense runs its untuned default config (TunableOp::default_index),
//    every flexible op the same fixed block heuristic (default_channel_block of the channels
//    it touches): one fixed layout policy for the whole network, no tuning. A conv's default
//    config takes the base's node_price_factor, as the base's own candidates do.

#include <map>
#include <string>
#include <vector>

#include "layoutopt/planning/cost_source.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::costs {

/// A cost source that narrows another's node candidates and keeps its transform times.
class RestrictedCosts : public planning::CostSource {
 public:
  [[nodiscard]] double transform_ms(const graph::Shape& shape, const layout::Layout& from,
                                    const layout::Layout& to) const final {
    return base_->transform_ms(shape, from, to);
  }
  [[nodiscard]] double node_price_factor(graph::NodeId id) const final { return base_->node_price_factor(id); }

 protected:
  /// `base` must outlive this source.
  explicit RestrictedCosts(const planning::CostSource& base) : base_(&base) {}
  const planning::CostSource* base_;
};

class FastestKernelCosts final : public RestrictedCosts {
 public:
  explicit FastestKernelCosts(const planning::CostSource& base) : RestrictedCosts(base) {}
  [[nodiscard]] std::string name() const override { return "fastest kernel per op (" + base_->name() + ")"; }
  [[nodiscard]] std::vector<planning::NodeCandidate> candidates(const graph::Graph& graph, graph::NodeId id) const override;
};

class DefaultScheduleCosts final : public RestrictedCosts {
 public:
  /// `default_seconds`: each task's default-config time by TuningTask::task_key()
  /// (default_config_seconds). `base` and `graph` must outlive this source.
  DefaultScheduleCosts(const planning::CostSource& base, const graph::Graph& graph, tuning::DefaultSeconds default_seconds);
  [[nodiscard]] std::string name() const override { return "untuned default schedules (" + base_->name() + ")"; }
  /// Throws std::runtime_error naming the node when its task's default config was not measured.
  [[nodiscard]] std::vector<planning::NodeCandidate> candidates(const graph::Graph& graph, graph::NodeId id) const override;

 private:
  /// The node's task of the algorithm the default runs (tuning::is_default_algorithm).
  [[nodiscard]] const tuning::TuningTask& default_task(graph::NodeId id) const;

  std::vector<tuning::TuningTask> tasks_;
  std::map<graph::NodeId, std::vector<size_t>> tasks_of_;
  tuning::DefaultSeconds default_seconds_;
};

}  // namespace layoutopt::costs
