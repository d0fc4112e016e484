#include "layoutopt/tuning/tuning_task.h"

#include <set>

#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/lowering.h"

namespace layoutopt::tuning {

namespace {

using nlohmann::json;

json tensor(const std::vector<int64_t>& shape) { return json::array({"TENSOR", shape, "float32"}); }

json conv_args(const kernels::Conv2dDesc& d, bool grouped) {
  json args = json::array({tensor({d.batch, d.in_channels, d.in_h, d.in_w}),
                           tensor({d.out_channels, d.in_channels_per_group(), d.kernel_h, d.kernel_w}),
                           json::array({d.stride_h, d.stride_w}),
                           json::array({d.pad_top, d.pad_left, d.pad_bottom, d.pad_right}),
                           json::array({d.dilation_h, d.dilation_w})});
  if (grouped) {
    args.push_back(d.groups);
  } else {
    args.push_back("NCHW");
    args.push_back("NCHW");
  }
  args.push_back("float32");
  return args;
}

json dense_args(const kernels::DenseDesc& d) {
  return json::array({tensor({d.batch, d.in_features}), tensor({d.out_features, d.in_features}), nullptr, "float32"});
}

const char* autotvm_name(kernels::OpFamily family) {
  switch (family) {
    case kernels::OpFamily::conv2d: return "conv2d_NCHWc.x86";
    case kernels::OpFamily::group_conv2d: return "group_conv2d_nchw.x86";
    case kernels::OpFamily::depthwise_conv2d: return "depthwise_conv2d_NCHWc.x86";
    case kernels::OpFamily::winograd_conv2d: return "conv2d_NCHWc_winograd.x86";
    case kernels::OpFamily::dense: return "dense_nopack.x86";
  }
  return "unknown";
}

// A task is the bare operator: the epilogue and the input scale only touch each output
// once / each weight vector once, so every node of a workload shares one task and its
// records, as in AutoTVM's task extraction.
std::vector<kernels::TunableOp> plain_algorithms(const graph::Graph& graph, graph::NodeId node) {
  if (std::holds_alternative<graph::Dense>(graph.node(node).op)) {
    kernels::DenseDesc desc = kernels::dense_desc(graph, node);
    desc.epilogue = {};
    return {kernels::TunableOp::dense(desc)};
  }
  kernels::Conv2dDesc desc = kernels::conv2d_desc(graph, node);
  desc.epilogue = {};
  desc.input_scale = false;
  return kernels::TunableOp::conv2d_algorithms(desc);
}

// AutoTVM's depthwise template splits input and output channels separately (always equal
// for multiplier 1); ours has the single knob tile_c.
void alias_depthwise_channels(std::map<std::string, int64_t>& knobs) {
  const auto ic = knobs.find("tile_ic");
  const auto oc = knobs.find("tile_oc");
  if (knobs.contains("tile_c") || ic == knobs.end() || oc == knobs.end() || ic->second != oc->second) return;
  knobs["tile_c"] = ic->second;
  knobs.erase("tile_ic");
  knobs.erase("tile_oc");
  knobs.erase("unroll_kw");  // our depthwise kernel always unrolls the kernel width
}

}  // namespace

std::string TuningTask::key() const { return name + " " + args.dump(); }

std::optional<int64_t> TuningTask::config_index(std::map<std::string, int64_t> knobs) const {
  if (op.family() == kernels::OpFamily::depthwise_conv2d) alias_depthwise_channels(knobs);
  // Knobs AutoTVM's templates lack take the choice its schedule hard-codes: its 1x1
  // template has no unroll_kw (nothing to unroll), its 3x3 one no tile_oh, and neither
  // reorders work items (oc_inner; records written before that knob existed read the same).
  for (const kernels::Knob& knob : op.space().knobs()) {
    if (knobs.contains(knob.name)) continue;
    if (knob.name == "tile_oh") knobs[knob.name] = 1;
    if (knob.name == "unroll_kw" || knob.name == "oc_inner") knobs[knob.name] = 0;
  }
  return op.index_of(knobs);
}

TuningTask make_task(const kernels::TunableOp& op, int64_t weight) {
  const bool dense = op.family() == kernels::OpFamily::dense;
  json args = dense ? dense_args(op.dense_desc())
                    : conv_args(op.conv_desc(), op.family() == kernels::OpFamily::group_conv2d);
  return {autotvm_name(op.family()), std::move(args), op, weight, {}};
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

std::vector<TuningTask> default_algorithm_tasks(const std::vector<TuningTask>& tasks) {
  std::vector<TuningTask> first;
  std::set<int64_t> seen;
  for (const TuningTask& task : tasks)
    if (task.workload < 0 || seen.insert(task.workload).second) first.push_back(task);
  return first;
}

std::map<graph::NodeId, std::vector<size_t>> tasks_by_node(const std::vector<TuningTask>& tasks) {
  std::map<graph::NodeId, std::vector<size_t>> by_node;
  for (size_t t = 0; t < tasks.size(); ++t)
    for (graph::NodeId node : tasks[t].nodes) by_node[node].push_back(t);
  return by_node;
}

TaskIndex::TaskIndex(const std::vector<TuningTask>& tasks) {
  for (size_t t = 0; t < tasks.size(); ++t) by_key_.emplace(tasks[t].key(), t);
}

std::optional<size_t> TaskIndex::find(const MeasureRecord& record, const std::string& target) const {
  if (record.target != target) return std::nullopt;
  const auto found = by_key_.find(record.task_key());
  if (found == by_key_.end()) return std::nullopt;
  return found->second;
}

}  // namespace layoutopt::tuning
