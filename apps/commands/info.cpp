// `layoutopt info MODEL [--threads N] [--json]`: what a network contains, what of it runs
// after the inference passes, the tasks tuning will see, and its compute limit on this host
// (evaluation/compute_limit.h): its FLOPs as the untuned default runs them at the FMA peak
// measured on N threads; and its roofline (evaluation/roofline.h): the inference graph's steps
// each at that peak or the measured read bandwidth, whichever binds.

#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/evaluation/compute_limit.h"
#include "layoutopt/evaluation/roofline.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/timing/memory_bandwidth.h"
#include "layoutopt/timing/peak_flops.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::apps {

namespace {

struct InfoFlags {
  ModelArgument model;
  int threads = 0;
  bool json = false;
};

/// The two yardsticks as the untuned default runs the model: its compute limit, and the
/// roofline of what runs after the inference passes (batch norms folded, so not counted as
/// steps).
struct Yardsticks {
  evaluation::ComputeLimit compute;
  evaluation::Roofline roofline;
};

Yardsticks default_yardsticks(const graph::Graph& g, const graph::Graph& inference, int threads) {
  const int resolved = pipeline::resolve_threads(threads);
  const timing::PeakFlops peak = timing::measure_peak_flops(timing::peak_flops_policy(resolved));
  const timing::MemoryBandwidth bandwidth = timing::measure_memory_bandwidth(timing::memory_bandwidth_policy(resolved));
  return {evaluation::compute_limit(g, nullptr, peak), evaluation::roofline(inference, nullptr, peak, bandwidth)};
}

std::map<std::string, int> op_histogram(const graph::Graph& g) {
  std::map<std::string, int> counts;
  for (const auto& node : g.nodes()) ++counts[graph::op_name(node.op)];
  return counts;
}

/// "239 (add 9, conv2d 81, ...)": the node count and the operator histogram.
std::string nodes_text(const graph::Graph& g) {
  std::string text = std::to_string(g.nodes().size()) + " (";
  bool first = true;
  for (const auto& [op, count] : op_histogram(g)) {
    text += (first ? "" : ", ") + op + " " + std::to_string(count);
    first = false;
  }
  return text + ")";
}

/// The graph the compiling commands run: the model after the inference passes.
struct Prepared {
  graph::Graph graph;
  graph::PipelineReport report;
};

Prepared prepared(const graph::Graph& g) {
  Prepared result{g, {}};
  result.report = graph::prepare_for_inference(result.graph);
  return result;
}

nlohmann::json tensors_json(const graph::Graph& g, const std::vector<graph::ValueId>& ids) {
  nlohmann::json list = nlohmann::json::array();
  for (graph::ValueId id : ids) list.push_back({{"name", g.value(id).name}, {"shape", g.value(id).type.shape}});
  return list;
}

/// One tuning task as `info` shows it: its kernel family and its workload.
struct TaskRow {
  std::string family;
  graph::Workload workload;
};

/// The tasks `layoutopt tune` tunes, numbered as it numbers them: one per algorithm of each
/// workload (a 3x3 stride-1 conv has a direct and a Winograd task).
std::vector<TaskRow> task_rows(const graph::Graph& g) {
  const std::vector<graph::Workload> workloads = graph::extract_workloads(g);
  std::vector<TaskRow> rows;
  for (const tuning::TuningTask& task : tuning::extract_tasks(g))
    rows.push_back({kernels::to_string(task.op.family()), workloads.at(static_cast<size_t>(task.workload))});
  return rows;
}

nlohmann::json bound_dimensions_json(const LoadedModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& bound : model.bound_dimensions)
    list.push_back({{"input", bound.input}, {"axis", bound.axis}, {"symbol", bound.symbol}, {"bound_to", bound.extent}});
  return list;
}

nlohmann::json info_json(const LoadedModel& model, const Prepared& inference, const std::vector<TaskRow>& tasks,
                         const Yardsticks& yardsticks) {
  const evaluation::ComputeLimit& limit = yardsticks.compute;
  const graph::Graph& g = model.graph;
  nlohmann::json task_list = nlohmann::json::array();
  for (const auto& [family, task] : tasks)
    task_list.push_back({{"kind", task.kind},
                         {"family", family},
                         {"workload", task.signature()},
                         {"count", task.nodes.size()},
                         {"macs", task.macs},
                         {"input", task.input},
                         {"weight", task.weight},
                         {"output", task.output}});
  return {{"name", g.name()},
          {"source", model.source},
          {"weights", model.weights},
          {"symbolic_dimensions", bound_dimensions_json(model)},
          {"inputs", tensors_json(g, g.inputs())},
          {"outputs", tensors_json(g, g.outputs())},
          {"nodes", g.nodes().size()},
          {"operators", op_histogram(g)},
          {"inference",
           {{"nodes", inference.graph.nodes().size()},
            {"operators", op_histogram(inference.graph)},
            {"passes", inference.report.summary()}}},
          {"parameters", graph::parameter_count(g)},
          {"macs", graph::mac_count(g)},
          {"compute_limit",
           {{"gflop", limit.direct_gflop}, {"executed_gflop", limit.executed_gflop},
            {"winograd_convs", limit.winograd_convs}, {"peak_gflops", limit.peak_gflops}, {"threads", limit.threads},
            {"limit_ms", limit.limit_ms()}}},
          {"roofline",
           {{"floor_ms", yardsticks.roofline.floor_ms()},
            {"memory_bound_ms", yardsticks.roofline.memory_bound_ms()},
            {"bandwidth_gbps", yardsticks.roofline.bandwidth_gbps}}},
          {"tasks", task_list}};
}

void print_tensors(const char* label, const graph::Graph& g, const std::vector<graph::ValueId>& ids) {
  for (graph::ValueId id : ids)
    std::cout << std::setw(12) << label << g.value(id).name << " " << graph::to_string(g.value(id).type.shape) << "\n";
}

void print_info(const LoadedModel& model, const Prepared& inference, const std::vector<TaskRow>& tasks,
                const Yardsticks& yardsticks) {
  const graph::Graph& g = model.graph;
  std::cout << std::left << std::setw(12) << "model" << g.name() << " (" << model.source << ")\n"
            << std::setw(12) << "weights" << model.weights << "\n";
  print_tensors("input", g, g.inputs());
  for (const auto& bound : model.bound_dimensions)
    std::cout << std::setw(12) << "symbolic" << "dimension " << bound.axis << " of '" << bound.input << "' ("
              << (bound.symbol.empty() ? "unnamed" : "'" + bound.symbol + "'") << ") bound to " << bound.extent
              << " (--batch)\n";
  print_tensors("output", g, g.outputs());
  if (!model.import_summary.empty()) std::cout << std::setw(12) << "import" << model.import_summary << "\n";
  std::cout << std::setw(12) << "nodes" << nodes_text(g) << "\n"
            << std::setw(12) << "inference" << nodes_text(inference.graph) << "\n"
            << std::setw(12) << "" << "after the passes: " << inference.report.summary() << "\n";
  const int64_t macs = graph::mac_count(g);
  std::cout << std::setw(12) << "parameters" << with_commas(graph::parameter_count(g)) << "\n"
            << std::setw(12) << "MACs" << si_units(static_cast<double>(macs)) << " (" << with_commas(macs) << ")\n"
            << std::setw(12) << "compute" << yardsticks.compute.summary() << "\n"
            << std::setw(12) << "roofline" << yardsticks.roofline.summary() << "\n"
            << std::setw(12) << "tasks" << tasks.size() << " tuning tasks of "
            << graph::extract_workloads(g).size() << " distinct conv2d/dense workloads (numbered as `tune` numbers them)\n"
            << "  " << std::right << std::setw(3) << "#" << std::left << "  " << std::setw(18) << "kernel"
            << std::setw(7) << "count" << std::setw(12) << "MACs each" << "workload\n";
  for (size_t i = 0; i < tasks.size(); ++i) {
    const graph::Workload& w = tasks[i].workload;
    std::cout << "  " << std::right << std::setw(3) << i + 1 << std::left << "  " << std::setw(18) << tasks[i].family
              << std::setw(7) << w.nodes.size() << std::setw(12) << si_units(static_cast<double>(w.macs))
              << w.signature().substr(w.kind.size() + 1) << "\n";
  }
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto flags = std::make_shared<InfoFlags>();
  CLI::App* command = app.add_subcommand(
      "info", "Nodes, parameters, multiply-accumulates and the distinct conv/dense workloads (tasks) of a model");
  add_model_argument(*command, flags->model);
  add_threads_option(*command, flags->threads, "threads the FMA peak and memory bandwidth are measured on");
  command->add_flag("--json", flags->json, "print machine-readable JSON");
  command->callback([flags] {
    const LoadedModel model = load_and_warn(flags->model);
    const std::vector<TaskRow> tasks = task_rows(model.graph);
    const Prepared inference = prepared(model.graph);
    const Yardsticks yardsticks = default_yardsticks(model.graph, inference.graph, flags->threads);
    if (flags->json) std::cout << info_json(model, inference, tasks, yardsticks).dump(2) << "\n";
    else print_info(model, inference, tasks, yardsticks);
  });
}

}  // namespace layoutopt::apps
