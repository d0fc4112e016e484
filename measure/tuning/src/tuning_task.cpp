#include "layoutopt/tuning/tuning_task.h"

#include <algorithm>

#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/gemm_conv2d.h"
#include "layoutopt/kernels/lowering.h"
#include "workload_key.h"

namespace layoutopt::tuning {

namespace {

// A task is the bare operator: the epilogue, the input scale and the prologue only touch
// each output once, each weight vector once and each input element once per output tile,
// so every node of a workload shares one task and its records, as in AutoTVM's task
// extraction.
std::vector<kernels::TunableOp> plain_algorithms(const graph::Graph& graph, graph::NodeId node) {
  if (std::holds_alternative<graph::Dense>(graph.node(node).op)) {
    kernels::DenseDesc desc = kernels::dense_desc(graph, node);
    desc.epilogue = {};
    return {kernels::TunableOp::dense(desc)};
  }
  kernels::Conv2dDesc desc = kernels::conv2d_desc(graph, node);
  desc.epilogue = {};
  desc.input_scale = false;
  desc.prologue.reset();
  std::vector<kernels::TunableOp> algorithms = kernels::TunableOp::conv2d_algorithms(desc);
  std::erase_if(algorithms, [&](const kernels::TunableOp& op) {
    return op.family() == kernels::OpFamily::gemm_conv2d && !kernels::gemm_conv2d_offered(desc);
  });
  return algorithms;
}

// AutoTVM's depthwise template splits input and output channels separately (always equal
// for multiplier 1); ours has the single knob tile_c.
void alias_depthwise_channels(std::map<std::string, int64_t>& knobs) {
  namespace k = kernels::knobs::depthwise_conv2d;
  const auto ic = knobs.find(k::tile_ic.name);
  const auto oc = knobs.find(k::tile_oc.name);
  if (knobs.contains(k::tile_c.name) || ic == knobs.end() || oc == knobs.end() || ic->second != oc->second) return;
  knobs[k::tile_c.name] = ic->second;
  knobs.erase(k::tile_ic.name);
  knobs.erase(k::tile_oc.name);
  knobs.erase(k::unroll_kw.name);  // our depthwise kernel always unrolls the kernel width
}

}  // namespace

TaskFamily task_family(kernels::OpFamily family) {
  switch (family) {
    case kernels::OpFamily::conv2d: return TaskFamily::conv2d;
    case kernels::OpFamily::group_conv2d: return TaskFamily::group_conv2d;
    case kernels::OpFamily::depthwise_conv2d: return TaskFamily::depthwise_conv2d;
    case kernels::OpFamily::winograd_conv2d: return TaskFamily::winograd_conv2d;
    case kernels::OpFamily::dense: return TaskFamily::dense;
    case kernels::OpFamily::gemm_conv2d: return TaskFamily::gemm_conv2d;
  }
  return TaskFamily::conv2d;
}

TaskKey TuningTask::task_key() const { return workload_key(op); }

std::optional<int64_t> TuningTask::config_index(std::map<std::string, int64_t> knobs) const {
  if (op.family() == kernels::OpFamily::depthwise_conv2d) alias_depthwise_channels(knobs);
  // Knobs AutoTVM's templates lack take the choice its schedule hard-codes: its 1x1
  // template has no unroll_kw (nothing to unroll), its 3x3 one no tile_oh, and neither
  // reorders work items (oc_inner; records written before that knob existed read the same).
  namespace k = kernels::knobs::conv2d;
  for (const kernels::Knob& knob : op.space().knobs()) {
    if (knobs.contains(knob.name)) continue;
    if (k::tile_oh.is(knob.name)) knobs[knob.name] = 1;
    if (k::unroll_kw.is(knob.name) || k::oc_inner.is(knob.name)) knobs[knob.name] = 0;
  }
  return op.index_of(knobs);
}

TuningTask make_task(const kernels::TunableOp& op, int64_t weight) {
  return {std::string(task_name(task_family(op.family()))), op, weight, {}};
}

std::vector<TuningTask> extract_tasks(const graph::Graph& graph) {
  std::vector<TuningTask> tasks;
  int64_t position = 0;
  for (const graph::Workload& workload : graph::extract_workloads(graph)) {
    for (const kernels::TunableOp& op : plain_algorithms(graph, workload.nodes.front())) {
      TuningTask task = make_task(op, static_cast<int64_t>(workload.nodes.size()));
      task.nodes = workload.nodes;
      task.workload = position;
      tasks.push_back(std::move(task));
    }
    ++position;
  }
  return tasks;
}

bool is_default_algorithm(const kernels::TunableOp& op) {
  if (op.family() == kernels::OpFamily::dense) return true;
  return kernels::TunableOp::conv2d_default_algorithm(op.conv_desc()).family() == op.family();
}

std::vector<TuningTask> default_algorithm_tasks(const std::vector<TuningTask>& tasks) {
  std::vector<TuningTask> chosen;
  for (const TuningTask& task : tasks)
    if (task.workload < 0 || is_default_algorithm(task.op)) chosen.push_back(task);
  return chosen;
}

std::map<graph::NodeId, std::vector<size_t>> tasks_by_node(const std::vector<TuningTask>& tasks) {
  std::map<graph::NodeId, std::vector<size_t>> by_node;
  for (size_t t = 0; t < tasks.size(); ++t)
    for (graph::NodeId node : tasks[t].nodes) by_node[node].push_back(t);
  return by_node;
}

TaskIndex::TaskIndex(const std::vector<TuningTask>& tasks) {
  for (size_t t = 0; t < tasks.size(); ++t) by_key_.emplace(tasks[t].task_key(), t);
}

std::optional<size_t> TaskIndex::find(const MeasureRecord& record, const std::string& target) const {
  if (record.target != target || !record.task) return std::nullopt;
  const auto found = by_key_.find(*record.task);
  if (found == by_key_.end()) return std::nullopt;
  return found->second;
}

}  // namespace layoutopt::tuning
