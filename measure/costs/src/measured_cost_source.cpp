#include "layoutopt/costs/measured_cost_source.h"

#include <limits>
#include <optional>
#include <stdexcept>
#include <variant>

#include "layoutopt/costs/flexible_ops.h"
#include "layoutopt/costs/offered_layouts.h"
#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/layout/transform.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/tuning/selection_bias.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::costs {

namespace {

using layout::Layout;

/// Kernels report NCHW as NCHW1c; the problem must see one spelling per layout, so every
/// layout is rewritten as Layout::channel_blocked (block 1 = the plain layout).
Layout normalized(const Layout& layout, size_t rank) { return Layout::channel_blocked(rank, layout.block_of('C')); }

std::string shape_text(const graph::Shape& shape) { return graph::to_string(shape); }

/// The node in its canonical layouts: at the flexible-op table's time of the kernel it runs
/// there (canonical_op), else 0 ms (views, and what runs as reference code).
planning::NodeCandidate canonical_candidate(const graph::Graph& graph, graph::NodeId id, const FlexibleOpTable& timed) {
  planning::NodeCandidate candidate{.output = layout::canonical_data_layout(graph.value(graph.node(id).output).type.shape.size()),
                          .ms = 0.0,
                          .label = "canonical (not timed: 0 ms)",
                          .kernel = planning::CanonicalKernel{}};
  for (graph::ValueId input : activation_inputs(graph, id))
    candidate.inputs.push_back(layout::canonical_data_layout(graph.value(input).type.shape.size()));
  if (const std::optional<FlexibleOp> op = canonical_op(graph, id)) {
    const auto found = timed.find(op->kernel);
    if (found == timed.end())
      throw std::logic_error("the flexible-op table has no time for node '" + graph.node(id).name + "' (" + op->label +
                             "): it was timed for another graph");
    candidate.ms = found->second;
    candidate.label = op->label;
  }
  return candidate;
}

}  // namespace

planning::NodeCandidate tuned_candidate(const tuning::TuningTask& task, const tuning::LayoutCandidate& tuned) {
  const size_t rank = task.op.family() == kernels::OpFamily::dense ? 2 : 4;
  const std::map<std::string, int64_t> knobs = task.op.knobs(tuned.index);
  return {.inputs = {normalized(tuned.layouts.input, rank)},
          .output = normalized(tuned.layouts.output, rank),
          .ms = tuned.seconds * 1e3,
          .label = kernels::knob_text(knobs),
          .kernel = planning::TunedKernel{.task = task.name,
                                          .family = kernels::to_string(task.op.family()),
                                          .config_index = tuned.index,
                                          .knobs = knobs}};
}

MeasuredCostSource::MeasuredCostSource(const graph::Graph& graph, const std::vector<tuning::MeasureRecord>& records,
                                       const MeasuredTables& tables, MeasuredCostOptions options, Repricing repricing)
    : graph_(&graph), table_(&tables.transforms), offered_(&tables.offered), flexible_(&tables.flexible),
      options_(std::move(options)), tasks_(tuning::extract_tasks(graph)), tasks_of_(tuning::tasks_by_node(tasks_)),
      repricing_(std::move(repricing)) {
  known_ = summarize_records(records);
  price();
}

MeasuredCostSource MeasuredCostSource::rebuilt(const std::vector<tuning::MeasureRecord>& records,
                                               Repricing repricing) const {
  return {*graph_, records, tables(), options_, std::move(repricing)};
}

MeasuredCostSource MeasuredCostSource::repriced(Repricing repricing) const {
  MeasuredCostSource source = *this;
  source.repricing_ = std::move(repricing);
  source.price();
  return source;
}

tuning::SessionResult MeasuredCostSource::summarize_records(const std::vector<tuning::MeasureRecord>& records) const {
  // One config per layout pair: only the cheapest of a pair can be optimal.
  tuning::TunerOptions tuner;
  tuner.top_k = 1;
  return tuning::summarize_history(tasks_, records, options_.target, tuner);
}

void MeasuredCostSource::price() {
  for (const auto& entry : repricing_.stale_tasks)
    if (entry.first >= tasks_.size())
      throw std::out_of_range("repricing names stale task " + std::to_string(entry.first) + "; graph '" +
                              graph_->name() + "' has " + std::to_string(tasks_.size()) + " tasks");
  for (const auto& entry : repricing_.in_network_nodes)
    if (entry.first < 0 || static_cast<size_t>(entry.first) >= graph_->nodes().size())
      throw std::out_of_range("repricing names node " + std::to_string(entry.first) + "; graph '" + graph_->name() +
                              "' has " + std::to_string(graph_->nodes().size()) + " nodes");
  read_summary();
  untimed_factor_ = untimed_factor();
}

void MeasuredCostSource::read_summary() {
  const std::map<size_t, StaleTask>& stale = repricing_.stale_tasks;
  const std::vector<double> once_timed = tuning::once_timed_factors_of(known_);
  // A stale task's own retiming ratios mix its selection bias with its drift (fresh timings
  // over an old tuning timing), and its stale factor carries the drift already: it takes the
  // selection bias of every task pooled.
  const std::vector<double> pooled =
      stale.empty() ? std::vector<double>{} : tuning::once_timed_factors_of(known_, std::numeric_limits<size_t>::max());
  tuned_.clear();
  untuned_.clear();
  for (size_t t = 0; t < tasks_.size(); ++t) {
    std::vector<planning::NodeCandidate>& kept = tuned_.emplace_back();
    tuning::CandidatePricing pricing{.once_timed_factor = once_timed[t]};
    if (const auto found = stale.find(t); found != stale.end())
      pricing = {.once_timed_factor = pooled[t], .stale_factor = found->second.drift, .fresh = found->second.fresh};
    for (const tuning::LayoutCandidate& candidate : known_.tasks[t].candidates.all(pricing))
      kept.push_back(tuned_candidate(tasks_[t], candidate));
    if (kept.empty()) untuned_.push_back(tasks_[t].task_key());
    if (const std::optional<tuning::LayoutCandidate> untuned_default = default_candidate(t, pricing, kept))
      kept.push_back(tuned_candidate(tasks_[t], *untuned_default));
  }
}

std::optional<tuning::LayoutCandidate> MeasuredCostSource::default_candidate(
    size_t task, const tuning::CandidatePricing& pricing, const std::vector<planning::NodeCandidate>& kept) const {
  const tuning::TuningTask& t = tasks_[task];
  if (kept.empty() || !tuning::is_default_algorithm(t.op)) return std::nullopt;
  const int64_t index = t.op.default_index();
  for (const planning::NodeCandidate& candidate : kept)
    if (std::get<planning::TunedKernel>(candidate.kernel).config_index == index) return std::nullopt;
  const std::optional<double> seconds = known_.tasks[task].candidates.estimated_seconds(index, pricing);
  if (!seconds) return std::nullopt;
  return tuning::LayoutCandidate{.index = index, .seconds = *seconds, .layouts = t.op.layouts(index)};
}

double MeasuredCostSource::untimed_factor() const {
  std::vector<double> ratios;
  for (const auto& [key, ms] : repricing_.in_network_transforms)
    if (const double table = table_ms(key); table > 0) ratios.push_back(ms / table);
  return ratios.empty() ? 1.0 : timing::summarize(ratios).median;
}

std::string MeasuredCostSource::model_spec() const {
  return options_.model.empty() ? graph_->name() : options_.model;
}

std::string MeasuredCostSource::tune_hint() const {
  return "run `layoutopt tune " + model_spec() + " --records " + options_.records_path.string() +
         " --threads " + std::to_string(options_.threads) + "` first";
}

std::string MeasuredCostSource::bench_hint() const {
  return "run `layoutopt bench-transforms " + model_spec() + " --records " + options_.records_path.string() +
         " -o " + options_.table_path.string() + " --threads " + std::to_string(options_.threads) + "`";
}

std::vector<planning::NodeCandidate> MeasuredCostSource::candidates(const graph::Graph& graph, graph::NodeId id) const {
  if (&graph != graph_)
    throw std::runtime_error("measured costs were read for graph '" + graph_->name() + "', not for node '" +
                             graph.node(id).name + "' of another graph");
  std::vector<planning::NodeCandidate> result = graph::has_workload(graph.node(id)) ? tuned_candidates(graph, id)
                                                 : is_layout_flexible(graph, id)      ? flexible_candidates(graph, id)
                                                                                      : std::vector{canonical_candidate(graph, id, *flexible_)};
  if (const auto timed = repricing_.in_network_nodes.find(id); timed != repricing_.in_network_nodes.end())
    for (planning::NodeCandidate& candidate : result) candidate.ms *= timed->second.factor_of(candidate_id(candidate));
  return result;
}

double MeasuredCostSource::node_price_factor(graph::NodeId id) const {
  const auto found = repricing_.in_network_nodes.find(id);
  return found != repricing_.in_network_nodes.end() ? found->second.latest : 1.0;
}

double MeasuredCostSource::candidate_price_factor(graph::NodeId id, const CandidateId& candidate) const {
  const auto found = repricing_.in_network_nodes.find(id);
  return found != repricing_.in_network_nodes.end() ? found->second.factor_of(candidate) : 1.0;
}

std::vector<planning::NodeCandidate> MeasuredCostSource::tuned_candidates(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Node& node = graph.node(id);
  // Every algorithm's tuned layout pairs: the solver keeps the cheapest of each pair. Tasks
  // are the bare conv's, so a conv with an input scale or prologue skips the algorithms
  // refusing one.
  const auto* conv = std::get_if<graph::Conv2d>(&node.op);
  const bool scaled = conv != nullptr && conv->input_scale;
  const bool prologue = conv != nullptr && conv->prologue;
  std::vector<planning::NodeCandidate> tuned;
  for (size_t task : tasks_of_.at(id)) {
    const kernels::OpFamily family = tasks_[task].op.family();
    if ((!scaled || kernels::takes_input_scale(family)) && (!prologue || kernels::takes_input_prologue(family)))
      tuned.insert(tuned.end(), tuned_[task].begin(), tuned_[task].end());
  }
  if (tuned.empty())
    throw std::runtime_error("node '" + node.name + "' (" + graph::workload_of(graph, id).signature() +
                             ") has no tuning records for target '" + options_.target + "' in " +
                             options_.records_path.string() + " (" + std::to_string(untuned_.size()) + " of " +
                             std::to_string(tasks_.size()) + " tasks are untuned): " + tune_hint());
  const graph::Shape& in = graph.value(node.inputs[0]).type.shape;
  const graph::Shape& out = graph.value(node.output).type.shape;
  std::vector<planning::NodeCandidate> kept;
  for (planning::NodeCandidate candidate : tuned) {
    if (!offers(*offered_, in, candidate.inputs[0]) || !offers(*offered_, out, candidate.output)) continue;
    candidate.inputs = graph::tuned_input_layouts(graph, id, candidate.inputs[0], candidate.output);
    kept.push_back(std::move(candidate));
  }
  if (kept.empty())
    throw std::runtime_error("none of the " + std::to_string(tuned.size()) + " tuned layouts of node '" + node.name +
                             "' (input " + shape_text(in) + ", output " + shape_text(out) +
                             ") has transform times in " + options_.table_path.string() + ": " + bench_hint());
  return kept;
}

std::vector<planning::NodeCandidate> MeasuredCostSource::flexible_candidates(const graph::Graph& graph, graph::NodeId id) const {
  std::vector<planning::NodeCandidate> result;
  for (int64_t block : offered_blocks(graph, id, *offered_)) {
    planning::NodeCandidate candidate = flexible_candidate(graph, id, block);
    candidate.ms = flexible_ms(graph, id, candidate);
    result.push_back(std::move(candidate));
  }
  return result;
}

double MeasuredCostSource::flexible_ms(const graph::Graph& graph, graph::NodeId id,
                                       const planning::NodeCandidate& candidate) const {
  const auto timed = flexible_->find(std::get<planning::FlexibleKernel>(candidate.kernel));
  if (timed == flexible_->end())
    throw std::logic_error("the flexible-op table has no time for node '" + graph.node(id).name + "' (" +
                           candidate.label + "): it was timed for another graph or other offered layouts");
  return timed->second;
}

double MeasuredCostSource::transform_ms(const graph::Shape& shape, const Layout& from, const Layout& to) const {
  if (layout::same_memory_order(shape, from, to)) return 0.0;
  const TransformKey key = table_key(shape, from, to);
  const InNetworkTransformTimes& in_network = repricing_.in_network_transforms;
  if (const auto measured = in_network.find(key); measured != in_network.end()) return measured->second;
  return table_ms(key) * untimed_factor_;
}

double MeasuredCostSource::table_ms(const TransformKey& key) const {
  const TransformEntry* entry = table_->find(options_.target, options_.threads, key);
  if (entry == nullptr)
    throw std::runtime_error("transform table " + options_.table_path.string() + " has no time for " +
                             describe(key) + " on '" +
                             options_.target + "': " + bench_hint());
  return entry->median_ms;
}

}  // namespace layoutopt::costs
