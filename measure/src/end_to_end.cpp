#include "layoutopt/measure/end_to_end.h"

#include <memory>

#include "layoutopt/measure/baseline_costs.h"
#include "layoutopt/measure/network_timing.h"
#include "layoutopt/measure/plan_schedule.h"

namespace layoutopt::measure {

const std::vector<Variant>& standard_variants() {
  static const std::vector<Variant> variants{
      {"default", VariantCosts::default_schedules, "auto"},
      {"history best", VariantCosts::fastest_kernels, "auto"},
      {"graph tuned (DP)", VariantCosts::measured, "dp"},
      {"graph tuned (PBQP)", VariantCosts::measured, "pbqp"},
  };
  return variants;
}

VariantResult evaluate_variant(const graph::Graph& graph, const Variant& variant, const CostSource& measured,
                               const std::map<std::string, double>& default_seconds, const EndToEndOptions& options) {
  std::unique_ptr<CostSource> restricted;
  if (variant.costs == VariantCosts::default_schedules)
    restricted = std::make_unique<DefaultScheduleCosts>(measured, graph, default_seconds);
  if (variant.costs == VariantCosts::fastest_kernels) restricted = std::make_unique<FastestKernelCosts>(measured);
  const CostSource& costs = restricted ? *restricted : measured;

  PlannerOptions planner = options.planner;
  planner.solver = variant.solver;
  VariantResult result{variant, plan_layouts(graph, costs, planner), {}, {}};
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(graph, network_schedule(result.planned.plan, graph));
  result.compiled = network.summary();
  result.measured = time_network(network, graph, options.timing);
  return result;
}

}  // namespace layoutopt::measure
