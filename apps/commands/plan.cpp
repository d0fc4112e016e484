// `layoutopt plan MODEL --records R --transforms T [--solver auto|dp|pbqp] [--threads N]
//   -o plan.json [--force]`: picks every node's kernel and layout for the whole network at
// once from measured costs (tuning records and the transform table) and writes the plan a
// compile step follows. `--model-costs` uses the analytic model instead, so a plan can be
// made before any tuning; the plan says its costs are modelled.
//
// With measured costs the chosen tuned configs are first timed again until each has
// `--confirm` timings (config_confirmation.h); the new timings are appended to the records.
// Then the plan's transforms and nodes are priced by their time inside its compiled network,
// planning again until it chooses only transforms so timed (`--calibrate-rounds`,
// network_calibration.h). This is the plan step of `optimize` (pipeline::plan_network),
// so both write the same plan from the same measurements.

#include <iomanip>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "layoutopt/pipeline/plan_network.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/planning/planner.h"

namespace layoutopt::apps {

namespace {

struct PlanFlags {
  ModelArgument model;
  OutputFile output;
  std::string records;
  std::string transforms;
  bool model_costs = false;
  int threads = 0;
  std::string solver = planning::to_string(pipeline::PlanPolicy{}.solver);
  pipeline::PlanPolicy policy;  ///< --time-limit, --confirm, --calibrate-rounds; --solver parsed into it
};

void print_result(const planning::PlanResult& result, const std::string& cost_source) {
  const solvers::Solution& s = result.solution;
  const planning::Plan& plan = result.plan;
  std::cout << std::fixed << std::setprecision(4) << "costs:       " << planning::to_string(plan.costs) << " ("
            << cost_source << ")\n"
            << "problem:     " << result.problem_nodes << " decision nodes, " << result.candidates
            << " candidates offered\n"
            << "solver:      " << planning::to_string(result.solver) << "\n";
  if (!result.fallback_reason.empty()) std::cout << "             (dp refused: " << result.fallback_reason << ")\n";
  std::cout << "cost:        " << s.cost << " ms\n"
            << "optimal:     " << (s.optimal ? "yes (proven)" : "not proven") << "\n";
  if (s.gap()) std::cout << "gap:         " << std::setprecision(3) << *s.gap() * 100 << " %\n";
  std::cout << std::setprecision(4) << "seconds:     " << s.seconds << "\n"
            << "transforms:  " << plan.transforms.size() << "\n"
            << "predicted:   " << plan.predicted_ms << " ms = " << plan.kernel_ms() << " ms kernels + "
            << plan.transform_ms() << " ms transforms"
            << (plan.costs == planning::CostKind::modelled ? " (modelled, not measured)" : "")
            << "\n";
}

pipeline::PlanRequest plan_request(const PlanFlags& flags) {
  pipeline::PlanRequest request{.costs = flags.model_costs ? planning::CostKind::modelled : planning::CostKind::measured,
                                .files = {flags.records, flags.transforms},
                                .plan = flags.output.path,
                                .model = flags.model.spec,
                                .threads = pipeline::resolve_threads(flags.threads),
                                .policy = flags.policy};
  request.policy.solver = planning::parse_solver(flags.solver);
  request.events.confirmed = [records = flags.records](const costs::ConfirmationReport& report) {
    std::cout << "confirmed:   " << report.summary() << "; appended to " << records << "\n";
  };
  request.events.calibrated = [](const costs::CalibrationReport& report) {
    std::cout << "calibrated:  " << report.summary() << "\n";
  };
  return request;
}

void run_plan(const PlanFlags& flags) {
  flags.output.check_writable();
  const pipeline::PlanRequest request = plan_request(flags);
  pipeline::check_cost_inputs(request.costs, request.files);
  const LoadedModel model = load_prepared_and_warn(flags.model);
  const pipeline::PlanReport report = pipeline::plan_network(model.graph, request);
  print_result(report.planned, report.cost_source);
  if (!report.phases.seconds().empty()) std::cout << "phases:      " << report.phases.summary() << "\n";
  std::cout << "wrote " << flags.output.path.string() << " (" << report.planned.plan.nodes.size() << " nodes)\n";
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto flags = std::make_shared<PlanFlags>();
  CLI::App* command = app.add_subcommand(
      "plan", "Choose every node's kernel and layout for the whole network (measured costs) and write a plan");
  add_model_argument(*command, flags->model);
  add_output_option(*command, flags->output, "plan file (JSON)");
  auto* records = command->add_option("--records", flags->records, "tuning record log (from `layoutopt tune`)");
  auto* transforms =
      command->add_option("--transforms", flags->transforms, "transform table (from `layoutopt bench-transforms`)");
  command->add_flag("--model-costs", flags->model_costs, "use the analytic cost model instead of measurements")
      ->excludes(records)
      ->excludes(transforms);
  command->add_option("--solver", flags->solver, "auto: dp, or pbqp when dp refuses the problem")
      ->check(CLI::IsMember({"auto", "dp", "pbqp"}))
      ->capture_default_str();
  add_threads_option(*command, flags->threads, "thread count the records and table were measured with");
  command->add_option("--time-limit", flags->policy.time_limit_s, "seconds pbqp may search")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_option("--confirm", flags->policy.confirm_timings,
                      "time the chosen tuned configs again until each has this many timings (appended to --records); "
                      "0 or 1 plans from the records as they are")
      ->check(non_negative_number())
      ->capture_default_str()
      ->excludes("--model-costs");
  command->add_option("--calibrate-rounds", flags->policy.calibrate_rounds,
                      "plans whose steps are timed inside the compiled network "
                      "(0: price transforms by the table, nodes by the records)")
      ->check(non_negative_number())
      ->capture_default_str()
      ->excludes("--model-costs");
  command->callback([flags] { run_plan(*flags); });
}

}  // namespace layoutopt::apps
