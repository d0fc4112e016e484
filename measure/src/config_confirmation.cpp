#include "layoutopt/measure/config_confirmation.h"

#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "layoutopt/measure/statistics.h"

namespace layoutopt::measure {

namespace {

using ConfigKey = std::pair<size_t, int64_t>;  // task position, config index

/// The tuned configs of `plans`, once each (nodes of one task may share a config).
std::map<ConfigKey, double> chosen_configs(const graph::Graph& graph, const std::vector<TuningTask>& tasks,
                                           const std::vector<Plan>& plans) {
  std::map<ConfigKey, double> chosen;
  for (const Plan& plan : plans)
    for (size_t t = 0; t < tasks.size(); ++t)
      for (graph::NodeId id : tasks[t].nodes) {
        const PlanNode& node = plan.nodes.at(static_cast<size_t>(id));
        if (node.name != graph.node(id).name) throw PlanError("plan node '" + node.name + "' is out of graph order");
        const nlohmann::json payload = nlohmann::json::parse(node.payload, nullptr, false);
        if (!payload.is_object() || payload.value("kind", "") != "tuned") continue;
        if (payload.value("task", "") != tasks[t].name) continue;  // the config of another algorithm's task
        chosen.emplace(ConfigKey{t, payload.at("config_index").get<int64_t>()}, node.ms * 1e-3);
      }
  return chosen;
}

/// Timings (failed ones included) per config of `tasks` among `records` of `target`.
std::map<ConfigKey, int> timing_counts(const std::vector<TuningTask>& tasks, const std::vector<MeasureRecord>& records,
                                       const std::string& target) {
  const TaskIndex index_of(tasks);
  std::map<ConfigKey, int> counts;
  for (const MeasureRecord& record : records) {
    const std::optional<size_t> task = index_of.find(record, target);
    if (!task) continue;
    if (const auto index = tasks[*task].config_index(record.knob_map())) ++counts[{*task, *index}];
  }
  return counts;
}

std::string round_note(int round, size_t chosen, size_t lacking, int64_t timings) {
  std::ostringstream out;
  out << "confirming round " << round << ": " << chosen << " tuned configs chosen, " << lacking
      << " timed again (" << timings << " timings)";
  return out.str();
}

}  // namespace

ConfirmationReport confirm_chosen_configs(const graph::Graph& graph, MeasuredCostSource& costs,
                                          std::vector<MeasureRecord>& records, Measurer& measurer,
                                          const RecordSink& sink, const std::function<std::vector<Plan>()>& replan,
                                          const ConfirmationOptions& options, ProgressReporter* progress) {
  const std::vector<TuningTask>& tasks = costs.tasks();
  std::map<ConfigKey, int> counts = timing_counts(tasks, records, options.target);
  std::map<ConfigKey, std::vector<double>> retimed;  // config -> new timings
  std::map<ConfigKey, double> planned;               // config -> time the plan had used
  ConfirmationReport report;
  while (report.rounds < options.max_rounds) {
    const std::map<ConfigKey, double> chosen = chosen_configs(graph, tasks, replan());
    ++report.rounds;
    std::vector<std::pair<ConfigKey, int>> lacking;
    for (const auto& [config, seconds] : chosen)
      if (const int missing = options.timings - counts[config]; missing > 0) lacking.emplace_back(config, missing);
    if (lacking.empty()) {
      report.confirmed = true;
      break;
    }
    int64_t wanted = 0;
    for (const auto& entry : lacking) wanted += entry.second;
    if (progress) progress->note(round_note(report.rounds, chosen.size(), lacking.size(), wanted));
    for (const auto& entry : lacking) planned.try_emplace(entry.first, chosen.at(entry.first));
    int64_t done = 0;
    // Passes over the configs, one timing of each per pass, not a config's timings back to
    // back: a shared host's memory bandwidth drifts (vgg-19-bn's 411 MB dense layer timed
    // 6.3-6.8 ms three times within a minute, and 12.7-14.4 ms two hours later, as its rivals
    // did then), and timings taken together share one moment's luck, which their median
    // cannot outvote.
    for (int pass = 0; done < wanted; ++pass)
      for (const auto& [config, missing] : lacking) {
        if (pass >= missing) continue;
        const TuningTask& task = tasks[config.first];
        const MeasureRecord record = make_record(options.target, task, config.second, measurer.measure(task, config.second));
        records.push_back(record);
        sink(record);
        ++counts[config];
        if (record.result.ok()) retimed[config].push_back(record.result.seconds());
        ++done;
        if (progress) progress->update(static_cast<double>(done), static_cast<double>(wanted), task.name);
      }
    report.new_timings += done;
    costs.read_records(records);
  }
  report.configs = static_cast<int64_t>(planned.size());
  std::vector<double> drift;
  for (const auto& [config, seconds] : planned)
    if (seconds > 0 && retimed.contains(config)) drift.push_back(summarize(retimed[config]).median / seconds);
  if (!drift.empty()) report.median_drift = summarize(drift).median;
  return report;
}

std::string ConfirmationReport::summary() const {
  std::ostringstream out;
  out << configs << " chosen configs timed again (" << new_timings << " timings, " << rounds << " plans"
      << (confirmed ? "" : ", stopped before every choice had its timings") << "); new / logged time, median "
      << std::fixed << std::setprecision(3) << median_drift;
  return out.str();
}

}  // namespace layoutopt::measure
