#include "layoutopt/costs/side_by_side.h"

#include "layoutopt/costs/network_timing.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::costs {

namespace {

std::vector<double> step_ms_on(kernels::CompiledNetwork& network, int threads, int runs) {
  const timing::ThreadScope scope(threads);
  network.execute();  // a first run at this thread count sizes the kernels' scratch
  return profile_network(network, runs).step_ms;
}

}  // namespace

std::vector<kernels::Fork> plan_side_by_side(kernels::CompiledNetwork& network, const graph::Graph& graph, int threads,
                                             int runs) {
  if (threads < 2) return {};
  set_random_inputs(network, graph);
  const std::vector<double> team_ms = step_ms_on(network, threads, runs);
  const std::vector<double> alone_ms = step_ms_on(network, 1, runs);
  return kernels::plan_forks(network.network().spec(), team_ms, alone_ms, threads);
}

namespace {

double median_of(const std::vector<double>& values) { return values.empty() ? 0.0 : timing::summarize(values).median; }

std::vector<double> ratios(const SideBySideRounds& rounds) {
  std::vector<double> out;
  for (size_t r = 0; r < rounds.team_ms.size() && r < rounds.forked_ms.size(); ++r)
    out.push_back(rounds.forked_ms[r] / rounds.team_ms[r]);
  return out;
}

}  // namespace

double SideBySideRounds::team_median() const { return median_of(team_ms); }
double SideBySideRounds::forked_median() const { return median_of(forked_ms); }
double SideBySideRounds::ratio_median() const { return median_of(ratios(*this)); }
std::pair<double, double> SideBySideRounds::ratio_range() const {
  const std::vector<double> r = ratios(*this);
  if (r.empty()) return {0, 0};
  const timing::Summary summary = timing::summarize(r);
  return {summary.min, summary.max};
}

SideBySideRounds time_side_by_side(kernels::CompiledNetwork& team, kernels::CompiledNetwork& forked,
                                   const graph::Graph& graph, const timing::TimingPolicy& policy, int rounds) {
  SideBySideRounds timed;
  for (int r = 0; r < rounds; ++r) {
    // Which side goes first alternates too, so neither always follows the other's warm caches.
    const bool team_first = r % 2 == 0;
    for (int side = 0; side < 2; ++side) {
      const bool team_side = (side == 0) == team_first;
      const timing::Timing t = time_network(team_side ? team : forked, graph, policy);
      (team_side ? timed.team_ms : timed.forked_ms).push_back(t.ms.median);
    }
  }
  return timed;
}

}  // namespace layoutopt::costs
