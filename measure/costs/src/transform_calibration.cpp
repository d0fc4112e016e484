#include "layoutopt/costs/transform_calibration.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "layoutopt/costs/network_timing.h"
#include "layoutopt/planning/plan_schedule.h"
#include "layoutopt/timing/statistics.h"

namespace layoutopt::costs {

namespace {

TransformKey key_of(const kernels::TransformedTensor& transform) {
  return table_key(transform.shape, transform.from, transform.to);
}

/// Each transform step's key and median time inside the network, in run order.
std::vector<std::pair<TransformKey, double>> transform_steps(kernels::CompiledNetwork& network,
                                                             const graph::Graph& graph, int runs, int warmup) {
  set_random_inputs(network, graph);
  for (int w = 0; w < warmup; ++w) network.execute();
  const std::vector<double> medians = profile_network(network, runs).step_ms;
  std::vector<std::pair<TransformKey, double>> steps;
  for (size_t s = 0; s < medians.size(); ++s)
    if (const auto& transform = network.steps()[s].transform) steps.emplace_back(key_of(*transform), medians[s]);
  return steps;
}

InNetworkTransformTimes by_key(const std::vector<std::pair<TransformKey, double>>& steps) {
  std::map<TransformKey, std::vector<double>> samples;
  for (const auto& [key, ms] : steps) samples[key].push_back(ms);
  InNetworkTransformTimes times;
  for (const auto& [key, ms] : samples) times[key] = timing::summarize(ms).median;
  return times;
}

}  // namespace

InNetworkTransformTimes time_transforms_in_network(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                                   int runs, int warmup) {
  return by_key(transform_steps(network, graph, runs, warmup));
}

std::string CalibrationReport::summary() const {
  std::ostringstream out;
  out << transforms << " transforms timed in the network (" << rounds << " plans"
      << (settled ? "" : ", stopped before every chosen transform was timed") << "); the first plan's: table "
      << std::fixed << std::setprecision(3) << table_ms << " ms, network " << network_ms << " ms; the others priced at "
      << std::setprecision(2) << untimed_factor << "x the table";
  return out.str();
}

CalibrationReport calibrate_transforms(const graph::Graph& graph, const MeasuredCostSource& costs,
                                       const std::function<planning::Plan(const MeasuredCostSource&)>& replan,
                                       const CalibrationOptions& options, timing::ProgressReporter* progress) {
  CalibrationReport report;
  report.repricing = costs.repricing();
  MeasuredCostSource current = costs;  // repriced after each round's timings
  InNetworkTransformTimes timed;
  for (int round = 1; round <= options.max_rounds; ++round) {
    const planning::Plan plan = replan(current);
    kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(graph, planning::network_schedule(plan, graph));
    const std::vector<std::pair<TransformKey, double>> steps = transform_steps(network, graph, options.profiled_runs, 3);
    const InNetworkTransformTimes times = by_key(steps);
    size_t unseen = 0;
    for (const auto& [key, ms] : times) unseen += timed.contains(key) ? 0 : 1;
    report.rounds = round;
    if (round == 1) {
      report.table_ms = plan.transform_ms();
      for (const auto& [key, ms] : steps) report.network_ms += ms;
    }
    if (progress)
      progress->note("calibrating transforms, round " + std::to_string(round) + ": " + std::to_string(times.size()) +
                     " in the plan, " + std::to_string(unseen) + " not timed in a network before");
    if (unseen == 0) {
      report.settled = true;
      break;
    }
    for (const auto& [key, ms] : times) {
      const auto [known, added] = timed.try_emplace(key, ms);
      if (!added) known->second = std::min(known->second, ms);
    }
    for (const auto& [key, ms] : timed) report.repricing.in_network_transforms[key] = ms;
    current = current.repriced(report.repricing);
  }
  report.transforms = timed.size();
  report.untimed_factor = current.untimed_transform_factor();
  return report;
}

}  // namespace layoutopt::costs
