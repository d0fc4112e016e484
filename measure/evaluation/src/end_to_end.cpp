#include "layoutopt/evaluation/end_to_end.h"

#include <memory>

#include "layoutopt/costs/baseline_costs.h"
#include "layoutopt/costs/network_timing.h"
#include "layoutopt/planning/plan_schedule.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/timing/steady_rounds.h"

namespace layoutopt::evaluation {

const std::vector<Variant>& standard_variants() {
  static const std::vector<Variant> variants{
      {"default", VariantCosts::default_schedules, planning::SolverChoice::automatic},
      {"history best", VariantCosts::fastest_kernels, planning::SolverChoice::automatic},
      {"graph tuned (DP)", VariantCosts::measured, planning::SolverChoice::dp},
      {"graph tuned (PBQP)", VariantCosts::measured, planning::SolverChoice::pbqp},
  };
  return variants;
}

namespace {

std::unique_ptr<planning::CostSource> restrict_costs(const graph::Graph& graph, const Variant& variant, const planning::CostSource& measured,
                                           const tuning::DefaultSeconds& default_seconds) {
  if (variant.costs == VariantCosts::default_schedules)
    return std::make_unique<costs::DefaultScheduleCosts>(measured, graph, default_seconds);
  if (variant.costs == VariantCosts::fastest_kernels) return std::make_unique<costs::FastestKernelCosts>(measured);
  return nullptr;
}

}  // namespace

planning::PlanResult plan_variant(const graph::Graph& graph, const Variant& variant, const planning::CostSource& measured,
                        const tuning::DefaultSeconds& default_seconds, const planning::PlannerOptions& options) {
  const std::unique_ptr<planning::CostSource> restricted = restrict_costs(graph, variant, measured, default_seconds);
  planning::PlannerOptions planner = options;
  planner.solver = variant.solver;
  return planning::plan_layouts(graph, restricted ? *restricted : measured, planner);
}

std::vector<VariantResult> evaluate_variants(const graph::Graph& graph, const std::vector<Variant>& variants,
                                             const planning::CostSource& measured,
                                             const tuning::DefaultSeconds& default_seconds,
                                             const EndToEndOptions& options, std::vector<std::string>* refused) {
  std::vector<VariantResult> results;
  std::vector<kernels::CompiledNetwork> networks;
  for (const Variant& variant : variants) {
    try {
      results.push_back({variant, plan_variant(graph, variant, measured, default_seconds, options.planner), {}, {}, 0});
    } catch (const solvers::SolverError& e) {
      if (refused) refused->push_back(variant.name + ": " + e.what());
      continue;
    }
    networks.push_back(kernels::CompiledNetwork::compile(graph, planning::network_schedule(results.back().planned.plan, graph)));
    results.back().compiled = networks.back().summary();
  }
  if (results.empty()) return results;
  // Probed before and after the rounds, never during one: a slow spell must not set it.
  const timing::TimingPolicy peak_policy = timing::peak_flops_policy(options.timing.threads);
  const timing::PeakFlops peak_before = timing::measure_peak_flops(peak_policy);
  const timing::SteadyRounds rounds = timing::time_steady_rounds(
      {.rounds = options.rounds, .max_retimed = options.max_retimed_rounds}, [&] {
        std::vector<double> medians;
        for (size_t v = 0; v < results.size(); ++v) {
          const timing::Timing timing = costs::time_network(networks[v], graph, options.timing);
          medians.push_back(timing.ms.median);
          results[v].runs += timing.repeats;
        }
        return medians;
      });
  const timing::PeakFlops peak = timing::faster_peak(peak_before, timing::measure_peak_flops(peak_policy));
  for (size_t v = 0; v < results.size(); ++v) {
    results[v].measured = timing::summarize(rounds.series(v));
    results[v].retimed_rounds = rounds.retimed;
    results[v].rounds_steady = rounds.steady;
    results[v].limit = compute_limit(graph, &results[v].planned.plan, peak);
  }
  return results;
}

}  // namespace layoutopt::evaluation
