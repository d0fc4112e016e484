// Confirming a plan's tuned configs: configs whose logged timing was lucky are timed again
// until the plan stops choosing them.

#include "layoutopt/costs/config_confirmation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "layoutopt/planning/planner.h"
#include "plan_fixtures.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

namespace {

/// Answers each config with its logged time times `drift` (the machine is a little slower
/// than when the log was written), except configs in `lucky`, whose logged time was a fluke:
/// they really take `slowdown` times as long.
class TrueTimes : public tuning::Measurer {
 public:
  TrueTimes(const std::vector<tuning::MeasureRecord>& log, const std::vector<tuning::TuningTask>& tasks) {
    for (const tuning::MeasureRecord& r : log)
      for (const tuning::TuningTask& task : tasks)
        if (task.task_key() == r.task_key()) logged[{task.task_key(), *task.config_index(r.knob_map())}] = r.result.seconds();
  }
  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
    const std::pair<tuning::TaskKey, int64_t> config{task.task_key(), index};
    ++calls;
    measured.insert(config);
    order.push_back(config);
    tuning::MeasureResult r;
    const auto moved = task_drift.find(task.task_key());
    const bool outlier = first_call_off.contains(task.task_key()) && std::count(order.begin(), order.end(), config) == 1;
    r.costs_s = {logged.at(config) * drift * (lucky.contains(config) ? slowdown : 1.0) *
                 (moved == task_drift.end() ? 1.0 : moved->second) * (outlier ? first_call_off.at(task.task_key()) : 1.0)};
    return r;
  }
  std::map<std::pair<tuning::TaskKey, int64_t>, double> logged;
  std::set<std::pair<tuning::TaskKey, int64_t>> lucky;
  std::set<std::pair<tuning::TaskKey, int64_t>> measured;
  std::vector<std::pair<tuning::TaskKey, int64_t>> order;  ///< every call's config, in call order
  std::map<tuning::TaskKey, double> task_drift;            ///< task key -> how much slower it runs than logged
  std::map<tuning::TaskKey, double> first_call_off;        ///< task key -> how far off a config's first timing here is
  double drift = 1.02;
  double slowdown = 10.0;
  int calls = 0;
};

/// (task key, config index) of every tuned node of `plan`.
std::set<std::pair<tuning::TaskKey, int64_t>> tuned_choices(const planning::Plan& plan,
                                                        const std::vector<tuning::TuningTask>& tasks) {
  std::set<std::pair<tuning::TaskKey, int64_t>> chosen;
  for (const tuning::TuningTask& task : tasks)
    for (graph::NodeId id : task.nodes) {
      const auto& tuned = std::get<planning::TunedKernel>(plan.nodes.at(static_cast<size_t>(id)).kernel);
      if (tuned.task != task.name) continue;  // the node runs another algorithm
      chosen.emplace(task.task_key(), tuned.config_index);
    }
  return chosen;
}

/// Records of `config` (task key, config index) in `log`.
int timings_of(const std::pair<tuning::TaskKey, int64_t>& config, const std::vector<tuning::MeasureRecord>& log,
               const std::vector<tuning::TuningTask>& tasks) {
  int count = 0;
  for (const tuning::TuningTask& task : tasks)
    for (const tuning::MeasureRecord& r : log)
      if (task.task_key() == config.first && r.task_key() == config.first && task.config_index(r.knob_map()) == config.second)
        ++count;
  return count;
}

}  // namespace

TEST_CASE("confirming re-times lucky configs until the plan no longer chooses them") {
  const graph::Graph g = tiny_graph();
  const auto tasks = tuning::extract_tasks(g);
  ScratchFile records("records.jsonl");
  write_records(records.path(), tasks);
  std::vector<tuning::MeasureRecord> log = tuning::load_record_log(records.path()).records;
  // conv1 has a direct and a Winograd task; config 0 of the direct one is its fastest. With
  // no Winograd config 0 logged, timing that config for a plan that chose the direct one
  // (mixing up the node's tasks) would find no logged time and fail.
  const tuning::TuningTask& winograd = tasks.at(1);
  REQUIRE(winograd.op.family() == kernels::OpFamily::winograd_conv2d);
  std::erase_if(log, [&](const tuning::MeasureRecord& r) {
    return r.task_key() == winograd.task_key() && winograd.config_index(r.knob_map()) == 0;
  });
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, log, table, records.path());
  const planning::PlannerOptions options = dp_planner();
  const auto plan = [&](const costs::MeasuredCostSource& costs) { return planning::plan_layouts(g, costs, options).plan; };

  // One of the first plan's three choices (conv1's, direct or Winograd; conv2's; fc's) was a
  // fluke. The others only share the machine's drift, which sets the selection bias
  // (selection_bias.h), so the fluke's rivals, timed once, are not scaled out of reach.
  TrueTimes measurer(log, tasks);
  const planning::Plan first = plan(measured.source);
  const auto first_choices = tuned_choices(first, tasks);
  REQUIRE(first_choices.size() == 3);
  measurer.lucky = {*first_choices.begin()};

  std::vector<tuning::MeasureRecord> sunk;
  std::set<std::pair<tuning::TaskKey, int64_t>> ever_chosen;
  const auto plan_and_note = [&](const costs::MeasuredCostSource& costs) {
    const planning::Plan planned = plan(costs);
    for (const auto& config : tuned_choices(planned, tasks)) ever_chosen.insert(config);
    return std::vector<planning::Plan>{planned};
  };
  const size_t logged = log.size();
  const costs::ConfirmationReport report = costs::confirm_chosen_configs(
      g, measured.source, log, measurer, [&](const tuning::MeasureRecord& r) { sunk.push_back(r); }, plan_and_note,
      {.target = kTarget, .timings = 3, .max_rounds = 6});
  // Only configs some plan chose were timed (not, say, a chosen index read in another
  // algorithm's task of the same node).
  for (const auto& config : measurer.measured) CHECK(ever_chosen.contains(config));

  CHECK(report.confirmed);
  CHECK(report.rounds >= 2);
  CHECK(report.new_timings == measurer.calls);
  CHECK(sunk.size() == static_cast<size_t>(measurer.calls));
  CHECK(log.size() == logged + sunk.size());
  CHECK(report.median_drift > 1.0);
  // The final plan avoids every fluke, and each of its configs now has 3 timings.
  const costs::MeasuredCostSource confirmed = measured.source.rebuilt(log, report.repricing);
  const auto last = tuned_choices(plan(confirmed), tasks);
  for (const auto& config : last) {
    CHECK_FALSE(measurer.lucky.contains(config));
    CHECK(timings_of(config, log, tasks) == 3);
  }
  // Confirming again only spot-checks the chosen configs, once each: the machine has not
  // moved since, so no task is stale and nothing else is timed.
  const int before = measurer.calls;
  const auto again = costs::confirm_chosen_configs(
      g, confirmed, log, measurer, [](const tuning::MeasureRecord&) {},
      [&](const costs::MeasuredCostSource& costs) { return std::vector<planning::Plan>{plan(costs)}; },
      {.target = kTarget});
  CHECK(again.confirmed);
  CHECK(again.rounds == 2);
  CHECK(again.spot_checks == 3);
  CHECK(again.stale_tasks.empty());
  CHECK(measurer.calls == before + 3);
  for (const auto& config : last) CHECK(timings_of(config, log, tasks) == 4);
}

TEST_CASE("a round times its configs in passes, not one config's timings back to back") {
  const graph::Graph g = tiny_graph();
  const auto tasks = tuning::extract_tasks(g);
  ScratchFile records("records.jsonl");
  write_records(records.path(), tasks);
  std::vector<tuning::MeasureRecord> log = tuning::load_record_log(records.path()).records;
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, log, table, records.path());
  const planning::PlannerOptions options = dp_planner();
  const auto plan = [&](const costs::MeasuredCostSource& costs) {
    return std::vector<planning::Plan>{planning::plan_layouts(g, costs, options).plan};
  };
  TrueTimes measurer(log, tasks);
  measurer.slowdown = 1.0;  // nothing is lucky: the first plan stands, and one round times it
  const auto chosen = tuned_choices(plan(measured.source).front(), tasks);
  REQUIRE(chosen.size() == 3);

  const auto report = costs::confirm_chosen_configs(
      g, measured.source, log, measurer, [](const tuning::MeasureRecord&) {}, plan, {.target = kTarget, .timings = 4});
  CHECK(report.confirmed);
  // Each chosen config was logged once and lacked 3 timings: 3 passes of 3 configs, each pass
  // timing every config once.
  REQUIRE(measurer.order.size() == 9);
  for (size_t pass = 0; pass < 3; ++pass) {
    const std::set<std::pair<tuning::TaskKey, int64_t>> timed(measurer.order.begin() + static_cast<long>(3 * pass),
                                                          measurer.order.begin() + static_cast<long>(3 * pass + 3));
    CHECK(timed == chosen);
  }
}

namespace {

/// The dense layer's task among the tiny graph's tasks.
const tuning::TuningTask& dense_task_of(const std::vector<tuning::TuningTask>& tasks) {
  const auto dense = std::find_if(tasks.begin(), tasks.end(),
                                  [](const auto& t) { return t.op.family() == kernels::OpFamily::dense; });
  REQUIRE(dense != tasks.end());
  return *dense;
}

/// Records of `tasks` in which every config is timed 3 times at its logged time: records
/// confirmed in an earlier session.
std::vector<tuning::MeasureRecord> confirmed_records(const std::filesystem::path& path,
                                                      const std::vector<tuning::TuningTask>& tasks) {
  write_records(path, tasks);
  const std::vector<tuning::MeasureRecord> once = tuning::load_record_log(path).records;
  std::vector<tuning::MeasureRecord> log;
  for (int copy = 0; copy < 3; ++copy) log.insert(log.end(), once.begin(), once.end());
  return log;
}

/// A tiny graph with confirmed records, the source of its costs, and confirmation of its
/// DP plan's choices.
struct ConfirmedLog {
  graph::Graph g = tiny_graph();
  std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(g);
  ScratchFile records{"records.jsonl"};
  std::vector<tuning::MeasureRecord> log = confirmed_records(records.path(), tasks);
  costs::TransformTable table = synthetic_table(g);
  MeasuredCosts measured{g, log, table, records.path()};
  costs::MeasuredCostSource costs = measured.source;  ///< rebuilt by confirm()
  const tuning::TuningTask& dense = dense_task_of(tasks);
  graph::NodeId dense_id = dense.nodes.front();

  [[nodiscard]] planning::Plan plan() const { return plan_from(costs); }
  /// Confirms the plan's choices, timing with `measurer`; the new records join `log` and
  /// `costs` is rebuilt over them with the repricing confirmation returned.
  costs::ConfirmationReport confirm(tuning::Measurer& measurer) {
    const costs::ConfirmationReport report = costs::confirm_chosen_configs(
        g, costs, log, measurer, [](const tuning::MeasureRecord&) {},
        [&](const costs::MeasuredCostSource& current) { return std::vector<planning::Plan>{plan_from(current)}; },
        {.target = kTarget, .timings = 3});
    costs = costs.rebuilt(log, report.repricing);
    return report;
  }

 private:
  [[nodiscard]] planning::Plan plan_from(const costs::MeasuredCostSource& source) const {
    return planning::plan_layouts(g, source, dp_planner()).plan;
  }
};

double planned_ms(const planning::Plan& plan, const std::string& node) {
  for (const planning::PlanNode& n : plan.nodes)
    if (n.name == node) return n.ms;
  FAIL("no node " << node);
  return 0;
}

}  // namespace

TEST_CASE("a task whose spot check drifted against the run's others is timed afresh and its rivals priced by the drift") {
  ConfirmedLog confirmed;
  const planning::Plan before = confirmed.plan();
  const std::string dense_node = confirmed.g.node(confirmed.dense_id).name;
  const std::vector<planning::NodeCandidate> offered = confirmed.costs.candidates(confirmed.g, confirmed.dense_id);
  REQUIRE(offered.size() >= 2);  // rivals in other layout pairs, as stale as the chosen one

  // Since the log was written, the dense layer (memory-bound) runs 2x slower, every config
  // of it alike; the convs run as logged.
  TrueTimes measurer(confirmed.log, confirmed.tasks);
  measurer.drift = 1.0;
  measurer.task_drift[confirmed.dense.task_key()] = 2.0;
  const auto report = confirmed.confirm(measurer);
  CHECK(report.confirmed);
  CHECK(report.spot_checks == 3);
  CHECK(report.stale_tasks == std::vector<std::string>{dense_node});
  // The dense choice got 3 timings from now, its latest: its spot check and 2 more. The convs
  // were only spot-checked, and the dense rivals not timed at all.
  const auto dense_choice = *std::find_if(measurer.order.begin(), measurer.order.end(),
                                          [&](const auto& config) { return config.first == confirmed.dense.task_key(); });
  CHECK(std::count(measurer.order.begin(), measurer.order.end(), dense_choice) == 3);
  CHECK(measurer.calls == 5);
  // Every dense candidate now costs twice what it did, the one re-timed by its fresh timings
  // and its rivals by the task's drift, so no stale rival undercuts it; the convs cost as before.
  const std::vector<planning::NodeCandidate> repriced = confirmed.costs.candidates(confirmed.g, confirmed.dense_id);
  REQUIRE(repriced.size() == offered.size());
  for (size_t i = 0; i < offered.size(); ++i) CHECK(repriced[i].ms == doctest::Approx(2 * offered[i].ms));
  const planning::Plan after = confirmed.plan();
  CHECK(planned_ms(after, dense_node) == doctest::Approx(2 * planned_ms(before, dense_node)));
  for (const planning::PlanNode& node : after.nodes)
    if (node.name != dense_node) CHECK(node.ms == doctest::Approx(planned_ms(before, node.name)));
}

TEST_CASE("a slow spell of the whole host does not pass for stale records") {
  ConfirmedLog confirmed;
  TrueTimes measurer(confirmed.log, confirmed.tasks);
  measurer.drift = 1.7;  // everything, alike
  const auto report = confirmed.confirm(measurer);
  CHECK(report.confirmed);
  CHECK(report.stale_tasks.empty());
  CHECK(report.spot_checks == 3);
  CHECK(measurer.calls == 3);
  CHECK(report.median_drift == doctest::Approx(1.7));
}

TEST_CASE("a spot check that fresh timings do not bear out was an outlier: the task is not stale") {
  ConfirmedLog confirmed;
  const std::vector<planning::NodeCandidate> offered = confirmed.costs.candidates(confirmed.g, confirmed.dense_id);
  TrueTimes measurer(confirmed.log, confirmed.tasks);
  measurer.drift = 1.0;
  measurer.first_call_off[confirmed.dense.task_key()] = 2.0;  // the spot check hits a hiccup; later timings do not
  const auto report = confirmed.confirm(measurer);
  CHECK(report.confirmed);
  CHECK(report.stale_tasks.empty());
  CHECK(measurer.calls == 5);  // 3 spot checks, and the dense choice's 2 fresh timings
  // Every dense candidate keeps its price: the rivals are not scaled, and the choice's latest
  // timings (the hiccup and two at its logged time) have the logged time as their median.
  const std::vector<planning::NodeCandidate> after = confirmed.costs.candidates(confirmed.g, confirmed.dense_id);
  REQUIRE(after.size() == offered.size());
  for (size_t i = 0; i < offered.size(); ++i) CHECK(after[i].ms == doctest::Approx(offered[i].ms));
}

TEST_CASE("a task timed at its logged time among neighbours in a slow spell is not stale") {
  ConfirmedLog confirmed;
  // The convs are timed in a spell, 1.3x; the dense layer misses it and runs as logged. Its
  // spot check is off its neighbours', and so are its fresh timings, but they match its log.
  TrueTimes measurer(confirmed.log, confirmed.tasks);
  measurer.drift = 1.3;
  measurer.task_drift[confirmed.dense.task_key()] = 1 / 1.3;
  const auto report = confirmed.confirm(measurer);
  CHECK(report.confirmed);
  CHECK(report.stale_tasks.empty());
  CHECK(measurer.calls == 5);  // 3 spot checks, and the dense choice's 2 fresh timings
}

TEST_CASE("a stale task's configs timed once take the pooled selection bias, not its own, which holds the drift") {
  const graph::Graph g = tiny_graph();
  const auto tasks = tuning::extract_tasks(g);
  ScratchFile records("records.jsonl");
  write_records(records.path(), tasks);
  std::vector<tuning::MeasureRecord> log = tuning::load_record_log(records.path()).records;
  const tuning::TuningTask* dense = &dense_task_of(tasks);
  const size_t dense_task = static_cast<size_t>(dense - tasks.data());
  // Every conv config is re-timed at its logged time (ratio 1); the dense layer's first three
  // are re-timed fresh at twice theirs (ratio 2: the drift), the rest stay timed once.
  std::vector<int64_t> fresh;
  const std::vector<tuning::MeasureRecord> once = log;
  for (const tuning::MeasureRecord& r : once) {
    const bool is_dense = r.task_key() == dense->task_key();
    if (is_dense && fresh.size() == 3) continue;
    if (is_dense) fresh.push_back(*dense->config_index(r.knob_map()));
    tuning::MeasureRecord later = r;
    later.result.costs_s = {r.result.seconds() * (is_dense ? 2.0 : 1.0)};
    for (int copy = 0; copy < 2; ++copy) log.push_back(later);
  }
  REQUIRE(fresh.size() == 3);
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, log, table, records.path());
  const auto price_of_once_timed = [&](const costs::MeasuredCostSource& costs) {
    for (const planning::NodeCandidate& c : costs.candidates(g, dense->nodes.front())) {
      const int64_t index = std::get<planning::TunedKernel>(c.kernel).config_index;
      if (std::find(fresh.begin(), fresh.end(), index) == fresh.end()) return std::make_pair(index, c.ms);
    }
    FAIL("no dense config timed once");
    return std::make_pair(int64_t{0}, 0.0);
  };
  const auto logged_ms = [&](int64_t index) {
    for (const tuning::MeasureRecord& r : once)
      if (r.task_key() == dense->task_key() && dense->config_index(r.knob_map()) == index) return r.result.seconds() * 1e3;
    FAIL("config not logged");
    return 0.0;
  };
  // Before the task is known stale, its own ratios (3 of 2.0) price its once-timed configs.
  const auto [index, before] = price_of_once_timed(measured.source);
  CHECK(before == doctest::Approx(2.0 * logged_ms(index)));
  // Found stale at 2x: the drift is priced once, with the pooled selection bias (1: the
  // convs' ratios outnumber the dense layer's), not twice.
  const costs::MeasuredCostSource stale = measured.source.repriced(
      {.stale_tasks = {{dense_task, {.drift = 2.0, .fresh = std::set<int64_t>(fresh.begin(), fresh.end())}}}});
  const auto [same, after] = price_of_once_timed(stale);
  REQUIRE(same == index);
  CHECK(after == doctest::Approx(2.0 * logged_ms(index)));
}
