#pragma once
// Tuning tasks: the distinct conv2d / depthwise / grouped conv / dense workloads of a graph,
// each with its weight (how often it occurs), named and described exactly as AutoTVM's x86
// task extraction does (task_args.h), so record logs read the same in both tools. A task's
// identity is its TaskKey (task_key.h).
//
// A 3x3 stride-1 conv workload has two tasks, one per algorithm (direct and Winograd), with the
// same weight and nodes: alternatives, of which each node runs one.
// As in AutoTVM the fused epilogue is not part of a task, nor is a conv's input scale: every
// occurrence shares one tuned schedule.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/task_key.h"

namespace layoutopt::tuning {

struct TuningTask {
  std::string name;      ///< AutoTVM task name, e.g. "conv2d_NCHWc.x86" (task_key().name())
  kernels::TunableOp op;
  int64_t weight = 1;    ///< occurrences in the graph
  std::vector<graph::NodeId> nodes;
  /// Position of its workload among the graph's; the algorithms of one workload share it
  /// (-1: a task made on its own, alternative to none).
  int64_t workload = -1;

  /// Identity of the task inside record logs: family and workload, from `op`.
  [[nodiscard]] TaskKey task_key() const;
  /// Config index of knob values read from a record. Accepts AutoTVM's own spellings:
  /// depthwise tile_ic == tile_oc for tile_c, and knobs our space has but AutoTVM's lacks
  /// (tile_oh, unroll_kw of 1x1 convs, oc_inner) take AutoTVM's fixed choice. nullopt when the
  /// values are not a point of this task's space.
  [[nodiscard]] std::optional<int64_t> config_index(std::map<std::string, int64_t> knobs) const;
};

/// The task of one operator (epilogue dropped), with the given weight.
[[nodiscard]] TuningTask make_task(const kernels::TunableOp& op, int64_t weight = 1);

/// One task per algorithm of each distinct conv2d / dense workload, workloads in order of first
/// occurrence, the direct algorithm first.
[[nodiscard]] std::vector<TuningTask> extract_tasks(const graph::Graph& graph);

/// Whether `op` is the algorithm the untuned default runs for its workload
/// (kernels::TunableOp::conv2d_default_algorithm; dense has one).
[[nodiscard]] bool is_default_algorithm(const kernels::TunableOp& op);

/// The algorithm the untuned default runs for each workload (is_default_algorithm), and every
/// task made on its own.
[[nodiscard]] std::vector<TuningTask> default_algorithm_tasks(const std::vector<TuningTask>& tasks);

/// The tasks of each conv / dense node: positions in `tasks`, in their order (the direct
/// algorithm first).
[[nodiscard]] std::map<graph::NodeId, std::vector<size_t>> tasks_by_node(const std::vector<TuningTask>& tasks);

/// The task family of an operator family.
[[nodiscard]] TaskFamily task_family(kernels::OpFamily family);

/// Which of a list of tasks a record measures, by TuningTask::task_key().
class TaskIndex {
 public:
  explicit TaskIndex(const std::vector<TuningTask>& tasks);
  /// Position in the list of the task `record` measures; nullopt when the record is of
  /// another target or measures a task not in the list.
  [[nodiscard]] std::optional<size_t> find(const MeasureRecord& record, const std::string& target) const;

 private:
  std::map<TaskKey, size_t> by_key_;
};

}  // namespace layoutopt::tuning
