#include "layoutopt/costs/config_confirmation.h"

#include <iomanip>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <utility>
#include <variant>

#include "layoutopt/costs/drift_check.h"
#include "layoutopt/timing/statistics.h"

namespace layoutopt::costs {

namespace {

using ConfigKey = std::pair<size_t, int64_t>;  // task position, config index

/// The tuned configs of `plans`, once each (nodes of one task may share a config).
std::map<ConfigKey, double> chosen_configs(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                                           const std::vector<planning::Plan>& plans) {
  std::map<ConfigKey, double> chosen;
  for (const planning::Plan& plan : plans)
    for (size_t t = 0; t < tasks.size(); ++t)
      for (graph::NodeId id : tasks[t].nodes) {
        const planning::PlanNode& node = plan.nodes.at(static_cast<size_t>(id));
        if (node.name != graph.node(id).name) throw planning::PlanError("plan node '" + node.name + "' is out of graph order");
        const auto* tuned = std::get_if<planning::TunedKernel>(&node.kernel);
        if (tuned == nullptr || tuned->task != tasks[t].name) continue;  // the config of another algorithm's task
        chosen.emplace(ConfigKey{t, tuned->config_index}, node.ms * 1e-3);
      }
  return chosen;
}

/// Timings (failed ones included) per config of `tasks` among `records` of `target`.
std::map<ConfigKey, int> timing_counts(const std::vector<tuning::TuningTask>& tasks, const std::vector<tuning::MeasureRecord>& records,
                                       const std::string& target) {
  const tuning::TaskIndex index_of(tasks);
  std::map<ConfigKey, int> counts;
  for (const tuning::MeasureRecord& record : records) {
    const std::optional<size_t> task = index_of.find(record, target);
    if (!task) continue;
    if (const auto index = tasks[*task].config_index(record.knob_map())) ++counts[{*task, *index}];
  }
  return counts;
}

std::string round_note(int round, size_t chosen, size_t spot, size_t lacking, int64_t timings) {
  std::ostringstream out;
  out << "confirming round " << round << ": " << chosen << " tuned configs chosen, " << spot << " spot-checked, "
      << lacking << " timed again (" << timings << " timings)";
  return out.str();
}

/// Times configs for one confirmation and keeps what it learns: every config's timing count
/// in the log, and the timings taken here.
class Retimer {
 public:
  Retimer(const std::vector<tuning::TuningTask>& tasks, std::vector<tuning::MeasureRecord>& records, tuning::Measurer& measurer,
          const tuning::RecordSink& sink, const std::string& target, timing::ProgressReporter* progress)
      : tasks_(tasks), records_(records), measurer_(measurer), sink_(sink), target_(target), progress_(progress),
        counts_(timing_counts(tasks, records, target)) {}

  /// Timings of `config` in the log, failed ones included.
  [[nodiscard]] int count(const ConfigKey& config) const {
    const auto found = counts_.find(config);
    return found == counts_.end() ? 0 : found->second;
  }
  /// Timings of `config` taken by this Retimer, failed ones included.
  [[nodiscard]] int taken(const ConfigKey& config) const {
    const auto found = taken_.find(config);
    return found == taken_.end() ? 0 : found->second;
  }
  /// Configs of `task` timed here.
  [[nodiscard]] std::set<int64_t> timed_here(size_t task) const {
    std::set<int64_t> configs;
    for (const auto& [config, count] : taken_)
      if (config.first == task) configs.insert(config.second);
    return configs;
  }
  /// The working timings taken here, in the order taken.
  [[nodiscard]] const std::vector<std::pair<ConfigKey, double>>& timeline() const { return timeline_; }
  [[nodiscard]] int64_t total() const { return total_; }

  /// Takes each config's wanted count of timings, in passes over them, one timing of each per
  /// pass, not a config's timings back to back: a shared host's memory bandwidth drifts
  /// (vgg-19-bn's 411 MB dense layer timed 6.3-6.8 ms three times within a minute, and
  /// 12.7-14.4 ms two hours later, as its rivals did then), and timings taken together share
  /// one moment's luck, which their median cannot outvote.
  void time(const std::vector<std::pair<ConfigKey, int>>& wanted) {
    int64_t all = 0;
    for (const auto& entry : wanted) all += entry.second;
    int64_t done = 0;
    for (int pass = 0; done < all; ++pass)
      for (const auto& [config, count] : wanted) {
        if (pass >= count) continue;
        const tuning::TuningTask& task = tasks_[config.first];
        const tuning::MeasureRecord record = tuning::make_record(target_, task, config.second, measurer_.measure(task, config.second));
        records_.push_back(record);
        sink_(record);
        ++counts_[config];
        ++taken_[config];
        if (record.result.ok()) timeline_.emplace_back(config, record.result.seconds());
        ++done;
        if (progress_) progress_->update(static_cast<double>(done), static_cast<double>(all), task.name);
      }
    total_ += done;
  }

 private:
  const std::vector<tuning::TuningTask>& tasks_;
  std::vector<tuning::MeasureRecord>& records_;
  tuning::Measurer& measurer_;
  const tuning::RecordSink& sink_;
  const std::string& target_;
  timing::ProgressReporter* progress_;
  std::map<ConfigKey, int> counts_;
  std::map<ConfigKey, int> taken_;
  std::vector<std::pair<ConfigKey, double>> timeline_;
  int64_t total_ = 0;
};

/// Per config timed here: the median of its new timings / its logged cost when a plan chose it.
std::map<ConfigKey, double> drifts(const Retimer& retimer, const std::map<ConfigKey, double>& planned) {
  std::map<ConfigKey, std::vector<double>> timings;
  for (const auto& [config, seconds] : retimer.timeline()) timings[config].push_back(seconds);
  std::map<ConfigKey, double> drift;
  for (const auto& [config, seconds] : planned)
    if (const auto timed = timings.find(config); seconds > 0 && timed != timings.end())
      drift[config] = timing::summarize(timed->second).median / seconds;
  return drift;
}

/// The median of `values`, or 1 when there are none.
double median_or_one(const std::vector<double>& values) { return values.empty() ? 1.0 : timing::summarize(values).median; }

/// The drift samples of `timings` (in the order taken), of configs whose logged cost is
/// `planned`; the ones of configs in `checked` are spot checks.
std::vector<DriftSample> drift_samples(std::span<const std::pair<ConfigKey, double>> timings,
                                       const std::set<ConfigKey>& checked, const std::map<ConfigKey, double>& planned) {
  std::vector<DriftSample> samples;
  for (const auto& [config, seconds] : timings)
    if (const double used = planned.at(config); used > 0)
      samples.push_back({config.first, seconds / used, checked.contains(config)});
  return samples;
}

/// How far task `task`'s logged timings drifted: the median over its configs timed here of
/// (the median of their new timings / their logged cost).
double fresh_drift(size_t task, const std::map<ConfigKey, double>& drift) {
  std::vector<double> own;
  for (const auto& [config, ratio] : drift)
    if (config.first == task) own.push_back(ratio);
  return median_or_one(own);
}

/// For people: what the fresh timings of a task whose spot check drifted made of it.
std::string stale_note(const graph::Graph& graph, const tuning::TuningTask& task, double spot_reference, double fresh,
                       bool stale) {
  std::ostringstream note;
  note << std::fixed << std::setprecision(2) << graph.node(task.nodes.front()).name << " (" << task.name
       << "): its spot check drifted from its neighbours' (" << spot_reference
       << "x their logged times); timed afresh it runs " << fresh << "x its logged time: "
       << (stale ? "its logged timings are stale, its other configs are priced so" : "its logged timings hold");
  return note.str();
}

/// What a round times: the timings each chosen config wants, and which configs are spot checks.
struct RoundTimings {
  std::vector<std::pair<ConfigKey, int>> wanted;
  std::set<ConfigKey> spot;
};

/// The timings the chosen configs want: a stale task's choice until it has `timings` fresh
/// ones, any config until it has `timings` in all, and a config with its timings that was not
/// timed here yet one spot check.
RoundTimings round_timings(const std::map<ConfigKey, double>& chosen, const Retimer& retimer,
                           const std::map<size_t, double>& stale, int timings) {
  RoundTimings round;
  for (const auto& [config, seconds] : chosen) {
    const int missing = timings - retimer.count(config);
    const int unfresh = timings - retimer.taken(config);
    if (stale.contains(config.first) && unfresh > 0) {
      round.wanted.emplace_back(config, unfresh);
    } else if (missing > 0) {
      round.wanted.emplace_back(config, missing);
    } else if (retimer.taken(config) == 0) {
      round.wanted.emplace_back(config, 1);
      round.spot.insert(config);
    }
  }
  return round;
}

/// Tasks whose spot checks among the round's timings (from `round_start` on) drifted from
/// their neighbours' (drift_check.h): their spot-checked choices are timed afresh, and the
/// ones whose fresh timings drift as far, and off their logged cost, are returned with that
/// drift; the others' logged timings hold.
std::map<size_t, double> newly_stale(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                                     Retimer& retimer, size_t round_start, const std::set<ConfigKey>& spot,
                                     const std::map<ConfigKey, double>& planned, const ConfirmationOptions& options,
                                     timing::ProgressReporter* progress) {
  const std::map<size_t, double> drifted = drifted_tasks(
      drift_samples(std::span(retimer.timeline()).subspan(round_start), spot, planned), options.stale_drift);
  std::vector<std::pair<ConfigKey, int>> afresh;
  for (const ConfigKey& config : spot)
    if (drifted.contains(config.first)) afresh.emplace_back(config, options.timings - retimer.taken(config));
  retimer.time(afresh);
  const std::map<ConfigKey, double> drift = drifts(retimer, planned);
  std::map<size_t, double> stale;
  for (const auto& [task, reference] : drifted) {
    const double fresh = fresh_drift(task, drift);
    // Stale: the fresh timings are off both the neighbours' drift and the logged time. Off the
    // neighbours' alone, the neighbours were timed in a slow spell the task missed.
    const bool is_stale =
        costs::drifted(fresh, reference, options.stale_drift) && costs::drifted(fresh, 1.0, options.stale_drift);
    if (progress) progress->note(stale_note(graph, tasks[task], reference, fresh, is_stale));
    if (is_stale) stale.emplace(task, fresh);
  }
  return stale;
}

}  // namespace

ConfirmationReport confirm_chosen_configs(const graph::Graph& graph, const MeasuredCostSource& costs,
                                          std::vector<tuning::MeasureRecord>& records, tuning::Measurer& measurer,
                                          const tuning::RecordSink& sink, const Replan& replan,
                                          const ConfirmationOptions& options, timing::ProgressReporter* progress) {
  const std::vector<tuning::TuningTask>& tasks = costs.tasks();
  Repricing repricing = costs.repricing();
  MeasuredCostSource current = costs;  // rebuilt after each round's timings
  Retimer retimer(tasks, records, measurer, sink, options.target, progress);
  std::map<ConfigKey, double> planned;  // config -> its logged cost when a plan chose it
  std::set<ConfigKey> spot_checked;
  std::map<size_t, double> stale;       // task -> how far its logged timings drifted
  ConfirmationReport report;
  while (report.rounds < options.max_rounds) {
    const std::map<ConfigKey, double> chosen = chosen_configs(graph, tasks, replan(current));
    ++report.rounds;
    const RoundTimings round = round_timings(chosen, retimer, stale, options.timings);
    if (round.wanted.empty()) {
      report.confirmed = true;
      break;
    }
    int64_t timings = 0;
    for (const auto& [config, count] : round.wanted) {
      timings += count;
      // A stale task's config not timed here was priced at its drift times its logged cost.
      const bool scaled = stale.contains(config.first) && retimer.taken(config) == 0;
      planned.try_emplace(config, chosen.at(config) / (scaled ? stale.at(config.first) : 1.0));
    }
    if (progress)
      progress->note(round_note(report.rounds, chosen.size(), round.spot.size(), round.wanted.size() - round.spot.size(),
                                timings));
    const size_t round_start = retimer.timeline().size();
    retimer.time(round.wanted);
    spot_checked.insert(round.spot.begin(), round.spot.end());
    // A stale task's other configs cost its drift times their timings until a plan chooses them.
    for (const auto& [task, drift] :
         newly_stale(graph, tasks, retimer, round_start, round.spot, planned, options, progress)) {
      stale.emplace(task, drift);
      report.stale_tasks.push_back(graph.node(tasks[task].nodes.front()).name);
    }
    // Each stale task's drift is the median over all its configs timed here so far: the one
    // that found it may have drifted less than its rivals, whose old timings came from
    // another state of the host (vgg-19-bn's fc6 holds timings from fast and slow days).
    const std::map<ConfigKey, double> drift = drifts(retimer, planned);
    for (auto& [task, factor] : stale) {
      factor = fresh_drift(task, drift);
      repricing.stale_tasks[task] = {.drift = factor, .fresh = retimer.timed_here(task)};
    }
    current = current.rebuilt(records, repricing);
  }
  report.repricing = std::move(repricing);
  report.configs = static_cast<int64_t>(planned.size());
  report.spot_checks = static_cast<int64_t>(spot_checked.size());
  report.new_timings = retimer.total();
  std::vector<double> drift;
  for (const auto& entry : drifts(retimer, planned)) drift.push_back(entry.second);
  report.median_drift = median_or_one(drift);
  return report;
}

std::string ConfirmationReport::summary() const {
  std::ostringstream out;
  out << configs << " chosen configs timed again (" << spot_checks << " spot checks, " << new_timings << " timings, "
      << rounds << " plans";
  if (!stale_tasks.empty()) out << "; stale tasks: " << stale_tasks.size();
  out << (confirmed ? "" : ", stopped before every choice had its timings") << "); new / logged time, median "
      << std::fixed << std::setprecision(3) << median_drift;
  return out.str();
}

}  // namespace layoutopt::costs
