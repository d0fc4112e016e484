#include "layoutopt/costs/side_by_side.h"

#include "layoutopt/costs/network_timing.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::costs {

namespace {

std::vector<double> step_ms_on(kernels::CompiledNetwork& network, int threads, int runs) {
  const timing::ThreadScope scope(threads);
  network.execute();  // a first run at this thread count sizes the kernels' scratch
  return profile_network(network, runs).step_ms;
}

}  // namespace

std::vector<runtime::Fork> plan_side_by_side(kernels::CompiledNetwork& network, int threads, int runs) {
  if (threads < 2) return {};
  const std::vector<double> team_ms = step_ms_on(network, threads, runs);
  const std::vector<double> alone_ms = step_ms_on(network, 1, runs);
  return runtime::plan_forks(network.network().spec(), team_ms, alone_ms, threads);
}

}  // namespace layoutopt::costs
