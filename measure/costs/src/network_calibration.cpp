#include "layoutopt/costs/network_calibration.h"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>

#include "layoutopt/costs/network_slowdown.h"
#include "layoutopt/costs/network_timing.h"
#include "layoutopt/planning/plan_schedule.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/timing/steady_rounds.h"

namespace layoutopt::costs {

namespace {

TransformKey key_of(const kernels::TransformedTensor& transform) {
  return table_key(transform.shape, transform.from, transform.to);
}

/// One plan's network, timed step by step: each transform step's key and share of the median
/// run (network_timing.h) in run order, and each node's share (summed over its steps).
struct StepTimes {
  std::vector<std::pair<TransformKey, double>> transforms;
  std::map<graph::NodeId, double> nodes;
};

/// Two profiles of the same network that must agree on the run's time (timing/steady_rounds.h):
/// a slow spell over one of them is profiled again rather than priced.
constexpr timing::RoundPolicy kProfileRounds{.rounds = 2, .max_retimed = 2};

/// Times a plan is timed again when its steps that ran before ran slower as a whole: a spell
/// of seconds passes within two, one of minutes outlasts any number worth waiting for.
constexpr int kMaxSlowPlanRetimes = 2;

/// The latest of profiles of `network` whose runs agree, and how many were profiled again.
struct SteadyProfile {
  NetworkProfile profile;
  int retimed = 0;
};

SteadyProfile steady_profile(kernels::CompiledNetwork& network, int runs) {
  std::vector<NetworkProfile> profiles;
  const timing::SteadyRounds rounds = timing::time_steady_rounds(kProfileRounds, [&] {
    profiles.push_back(profile_network(network, runs));
    return std::vector<double>{profiles.back().run_ms};
  });
  return {std::move(profiles.back()), rounds.retimed};
}

StepTimes time_steps(kernels::CompiledNetwork& network, const graph::Graph& graph, int runs, int warmup,
                     int* retimed = nullptr) {
  set_random_inputs(network, graph);
  for (int w = 0; w < warmup; ++w) network.execute();
  SteadyProfile steady = steady_profile(network, runs);
  if (retimed) *retimed += steady.retimed;
  const std::vector<double> shares = std::move(steady.profile.step_ms);
  StepTimes times;
  for (size_t s = 0; s < shares.size(); ++s) {
    const kernels::NetworkStep& step = network.steps()[s];
    if (step.transform) {
      times.transforms.emplace_back(key_of(*step.transform), shares[s]);
    } else if (const std::optional<graph::NodeId> node = graph.find_node(step.name)) {
      times.nodes[*node] += shares[s];
    }
  }
  return times;
}

/// The plan's steps' shares added up (the median run): what its prediction is meant to match.
double total_ms(const StepTimes& times) {
  double total = 0;
  for (const auto& [key, ms] : times.transforms) total += ms;
  for (const auto& [id, ms] : times.nodes) total += ms;
  return total;
}

std::string format_ms(double ms) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << ms << " ms";
  return out.str();
}

std::string format_factor(double factor) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << factor << "x";
  return out.str();
}

InNetworkTransformTimes by_key(const std::vector<std::pair<TransformKey, double>>& steps) {
  std::map<TransformKey, std::vector<double>> samples;
  for (const auto& [key, ms] : steps) samples[key].push_back(ms);
  InNetworkTransformTimes times;
  for (const auto& [key, ms] : samples) times[key] = timing::summarize(ms).median;
  return times;
}

/// Each priced node's in-network time and its factor: that time over the isolated price of
/// the candidate that ran (its plan price before `costs` scaled it). Nodes priced at 0 (not
/// timed: views and canonical ops) have none.
std::map<graph::NodeId, NodeTiming> node_timings(const StepTimes& times, const planning::Plan& plan,
                                                 const MeasuredCostSource& costs) {
  std::map<graph::NodeId, NodeTiming> timings;
  for (const auto& [id, ms] : times.nodes) {
    const planning::PlanNode& ran = plan.nodes.at(static_cast<size_t>(id));
    if (ran.ms <= 0 || ms <= 0) continue;
    const CandidateId candidate = candidate_id(ran);
    timings[id] = {candidate, ms / (ran.ms / costs.candidate_price_factor(id, candidate)), ms};
  }
  return timings;
}

/// Whose factors a timed plan gives: a planned plan's also price the candidates that never
/// ran at its nodes (InNetworkNode::latest), the untuned baseline's only its own. Why: a tuned
/// candidate's isolated price is the fastest of its timings, the default config's is one
/// config's, so the default's factor runs lower; carried over to tuned candidates, it priced
/// them below what they ran (docs/design/in-network-calibration.md).
enum class FactorScope { candidates_and_node, own_candidates };

/// Records each node's factor for the candidate that ran: the fastest round's for that
/// candidate, and (by `scope`) the latest for the node.
void record_node_factors(std::map<graph::NodeId, InNetworkNode>& into,
                         const std::map<graph::NodeId, NodeTiming>& timings, FactorScope scope) {
  for (const auto& [id, ran] : timings) {
    InNetworkNode& node = into[id];
    const auto [known, added] = node.ran.try_emplace(ran.candidate, ran.factor);
    if (!added) known->second = std::min(known->second, ran.factor);
    if (scope == FactorScope::candidates_and_node) node.latest = ran.factor;
  }
}

PricedAndTimed priced_and_timed_nodes(const StepTimes& times, const planning::Plan& plan) {
  PricedAndTimed result;
  for (const auto& [id, ms] : times.nodes) {
    result.priced_ms += plan.nodes.at(static_cast<size_t>(id)).ms;
    result.network_ms += ms;
  }
  return result;
}

/// Keeps the smaller of what `into` holds and each of `timed`: the fastest round's.
void keep_fastest(InNetworkTransformTimes& into, const InNetworkTransformTimes& timed) {
  for (const auto& [key, value] : timed) {
    const auto [known, added] = into.try_emplace(key, value);
    if (!added) known->second = std::min(known->second, value);
  }
}

}  // namespace

InNetworkTransformTimes time_transforms_in_network(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                                   int runs, int warmup) {
  return by_key(time_steps(network, graph, runs, warmup).transforms);
}

std::string CalibrationReport::summary() const {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3);
  if (baseline_nodes)
    out << "the baseline plan's nodes: priced " << baseline_nodes->priced_ms << " ms, network "
        << baseline_nodes->network_ms << " ms; ";
  out << rounds << " plans timed in the network"
      << (settled ? "" : ", stopped before planning returned the plan last timed") << "; the first plan's " << nodes
      << " nodes: priced " << first_nodes.priced_ms << " ms, network " << first_nodes.network_ms
      << " ms; its transforms: table " << first_transforms.priced_ms << " ms, network " << first_transforms.network_ms
      << " ms; " << transforms << " transforms timed, the others priced at " << std::setprecision(2) << untimed_factor
      << "x the table; " << retimed_profiles << " profiles timed again after a swing, " << retimed_plans
      << " plans after the whole network slowed";
  return out.str();
}

CalibrationReport calibrate_in_network(const graph::Graph& graph, const MeasuredCostSource& costs,
                                       const std::function<planning::Plan(const MeasuredCostSource&)>& replan,
                                       const std::optional<planning::Plan>& baseline, const CalibrationOptions& options,
                                       timing::ProgressReporter* progress) {
  CalibrationReport report;
  report.repricing = costs.repricing();
  MeasuredCostSource current = costs;  // repriced after each round's timings
  InNetworkTransformTimes timed;
  const auto compile = [&](const planning::Plan& plan) {
    return kernels::CompiledNetwork::compile(graph, planning::network_schedule(plan, graph));
  };
  // Each timed plan: its nodes' factors and its transforms' times join the repricing.
  // `priced_by` is the source the plan was priced with: a node's isolated price is its plan
  // price over the factor it had then. (The baseline is priced once, before any round;
  // dividing its last timing by the factor its first had given counted that factor twice.)
  // A plan whose steps that ran before run slower as a whole than they did then was timed in
  // a slow spell, not priced wrong (network_slowdown.h): it is timed again and the latest
  // timing kept, so a spell's factors do not price the next round's candidates.
  const auto time_plan = [&](const planning::Plan& plan, kernels::CompiledNetwork& network,
                             const MeasuredCostSource& priced_by, FactorScope scope) {
    StepTimes steps;
    std::map<graph::NodeId, NodeTiming> timings;
    const auto time_once = [&] {  // the first timing and every retime alike
      steps = time_steps(network, graph, options.profiled_runs, 3, &report.retimed_profiles);
      timings = node_timings(steps, plan, priced_by);
    };
    time_once();
    for (int again = 0; again < kMaxSlowPlanRetimes; ++again) {
      const std::optional<double> slowdown = network_slowdown(timings, report.repricing.in_network_nodes);
      if (!slowdown || *slowdown <= timing::kRoundSwingTolerance) break;
      if (progress)
        progress->note("calibrating in the network: the steps that ran before took " + format_factor(*slowdown) +
                       " their earlier time, a slow spell; timing the plan again");
      time_once();
      ++report.retimed_plans;
    }
    record_node_factors(report.repricing.in_network_nodes, timings, scope);
    return steps;
  };
  const auto absorb_transforms = [&](const InNetworkTransformTimes& times) {
    keep_fastest(timed, times);
    for (const auto& [key, ms] : timed) report.repricing.in_network_transforms[key] = ms;
    current = current.repriced(report.repricing);
  };
  // The baseline runs before the first round and after the last, so that a slow spell over
  // one of its timings does not price it against plans timed in a quiet stretch (its
  // candidates keep the faster factor, as every candidate does).
  std::optional<kernels::CompiledNetwork> baseline_network;  // compiled once, timed twice
  const auto time_baseline = [&](const char* when) {
    if (!baseline_network) baseline_network.emplace(compile(*baseline));
    const StepTimes steps = time_plan(*baseline, *baseline_network, costs, FactorScope::own_candidates);
    const PricedAndTimed timed_nodes = priced_and_timed_nodes(steps, *baseline);
    if (!report.baseline_nodes || timed_nodes.network_ms < report.baseline_nodes->network_ms)
      report.baseline_nodes = timed_nodes;
    if (progress)
      progress->note(std::string("calibrating in the network, the baseline plan ") + when + ": " +
                     std::to_string(steps.nodes.size()) + " nodes; predicted " + format_ms(baseline->predicted_ms) +
                     ", its steps took " + format_ms(total_ms(steps)));
    absorb_transforms(by_key(steps.transforms));
  };
  if (baseline) time_baseline("first");
  // Settled when planning again returns the plan last timed: every price it was chosen by is
  // then its own in-network timing. (Stopping once a plan's transforms had all been timed
  // left plans whose nodes had moved to candidates never timed together.)
  std::optional<planning::Plan> last_timed;
  for (int round = 1; round <= options.max_rounds; ++round) {
    const planning::Plan plan = replan(current);
    if (last_timed && planning::same_schedule(plan, *last_timed)) {
      report.settled = true;
      break;
    }
    kernels::CompiledNetwork network = compile(plan);
    const StepTimes steps = time_plan(plan, network, current, FactorScope::candidates_and_node);
    const InNetworkTransformTimes times = by_key(steps.transforms);
    size_t unseen = 0;
    for (const auto& [key, ms] : times) unseen += timed.contains(key) ? 0 : 1;
    report.rounds = round;
    if (round == 1) {
      report.first_transforms.priced_ms = plan.transform_ms();
      for (const auto& [key, ms] : steps.transforms) report.first_transforms.network_ms += ms;
      report.first_nodes = priced_and_timed_nodes(steps, plan);
    }
    if (progress)
      progress->note("calibrating in the network, round " + std::to_string(round) + ": " +
                     std::to_string(steps.nodes.size()) + " nodes, " + std::to_string(times.size()) +
                     " transforms, " + std::to_string(unseen) + " not timed in a network before; predicted " +
                     format_ms(plan.predicted_ms) + ", its steps took " + format_ms(total_ms(steps)));
    absorb_transforms(times);
    last_timed = plan;
  }
  if (baseline) time_baseline("last");
  report.transforms = timed.size();
  report.nodes = report.repricing.in_network_nodes.size();
  report.untimed_factor = current.untimed_transform_factor();
  return report;
}

}  // namespace layoutopt::costs
