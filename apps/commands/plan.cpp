// `layoutopt plan MODEL --records R --transforms T [--solver auto|dp|pbqp] [--threads N]
//   -o plan.json [--force]`: picks every node's kernel and layout for the whole network at
// once from measured costs (tuning records and the transform table) and writes the plan a
// compile step follows. `--model-costs` uses the analytic model instead, so a plan can be
// made before any tuning; the plan says its costs are modelled.
//
// With measured costs the chosen tuned configs are first timed again until each has
// `--confirm` timings (config_confirmation.h); the new timings are appended to the records.
// Then the transforms the plan chooses are priced by their time inside its compiled network,
// planning again until it chooses only transforms so timed (`--calibrate-rounds`,
// transform_calibration.h), as `optimize` does, so both write the same plan from the same
// measurements.

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"
#include "commands.h"
#include "measurement_files.h"
#include "output_file.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/costs/config_confirmation.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/cpu_info.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/costs/transform_calibration.h"

namespace layoutopt::apps {

namespace {

struct PlanFlags {
  ModelArgument model;
  OutputFile output;
  std::string records;
  std::string transforms;
  bool model_costs = false;
  std::string solver = "auto";
  int threads = 0;
  double time_limit_s = 10.0;
  int confirm = 3;
  int calibrate_rounds = costs::CalibrationOptions{}.max_rounds;
};

void require_file(const std::string& path, const std::string& what, const std::string& hint) {
  if (path.empty()) throw std::runtime_error("give --" + what + " (or --model-costs to plan without measurements)");
  if (!std::filesystem::exists(path)) throw std::runtime_error(what + " file '" + path + "' does not exist: " + hint);
}

tuning::LoadedLog load_records(const PlanFlags& flags, const std::string& model, const std::string& target) {
  require_file(flags.records, "records", "run `layoutopt tune " + model + " --records " + flags.records + "` first");
  timing::ProgressReporter warnings(std::cerr, {.mode = timing::ProgressMode::lines});
  return load_records_warning(flags.records, target, warnings);
}

costs::TransformTable load_table(const PlanFlags& flags, const std::string& model) {
  require_file(flags.transforms, "transforms",
               "run `layoutopt bench-transforms " + model + " --records " + flags.records + " -o " + flags.transforms +
                   "` first");
  timing::ProgressReporter warnings(std::cerr, {.mode = timing::ProgressMode::lines});
  return load_table_warning(flags.transforms, warnings);
}

void print_result(const planning::PlanResult& result, const std::string& cost_source) {
  const solvers::Solution& s = result.solution;
  const planning::Plan& plan = result.plan;
  std::cout << std::fixed << std::setprecision(4) << "costs:       " << plan.costs << " (" << cost_source << ")\n"
            << "problem:     " << result.problem_nodes << " decision nodes, " << result.candidates
            << " candidates offered\n"
            << "solver:      " << result.solver << "\n";
  if (!result.fallback_reason.empty()) std::cout << "             (dp refused: " << result.fallback_reason << ")\n";
  std::cout << "cost:        " << s.cost << " ms\n"
            << "optimal:     " << (s.optimal ? "yes (proven)" : "not proven") << "\n";
  if (s.gap()) std::cout << "gap:         " << std::setprecision(3) << *s.gap() * 100 << " %\n";
  std::cout << std::setprecision(4) << "seconds:     " << s.seconds << "\n"
            << "transforms:  " << plan.transforms.size() << "\n"
            << "predicted:   " << plan.predicted_ms << " ms = " << plan.kernel_ms() << " ms kernels + "
            << plan.transform_ms() << " ms transforms" << (plan.costs == "modelled" ? " (modelled, not measured)" : "")
            << "\n";
}

/// Times the chosen configs again until each has `flags.confirm` timings (appended to the
/// records), so the plan rests on medians instead of the tuner's luckiest timings.
void confirm_configs(const PlanFlags& flags, const graph::Graph& graph, costs::MeasuredCostSource& costs,
                     std::vector<tuning::MeasureRecord> records, const planning::PlannerOptions& options, int threads) {
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(false)});
  tuning::KernelMeasurer measurer(timing::cost_policy(threads));
  tuning::RecordWriter writer(flags.records);
  const costs::ConfirmationReport report = costs::confirm_chosen_configs(
      graph, costs, records, measurer, [&](const tuning::MeasureRecord& r) { writer.append(r); },
      [&] { return std::vector<planning::Plan>{planning::plan_layouts(graph, costs, options).plan}; },
      {.target = options.target, .timings = flags.confirm}, &progress);
  progress.finish();
  std::cout << "confirmed:   " << report.summary() << "; appended to " << flags.records << "\n";
}

/// Prices the transforms the plan chooses by their time inside its compiled network, run on
/// `threads` threads like every timing behind the plan.
void calibrate_transforms(const PlanFlags& flags, const graph::Graph& graph, costs::MeasuredCostSource& costs,
                          const planning::PlannerOptions& options, int threads) {
  const timing::ThreadScope scope(threads);
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(false)});
  const costs::CalibrationReport report = costs::calibrate_transforms(
      graph, costs, [&] { return planning::plan_layouts(graph, costs, options).plan; },
      {.max_rounds = flags.calibrate_rounds}, &progress);
  progress.finish();
  std::cout << "calibrated:  " << report.summary() << "\n";
}

void run_plan(const PlanFlags& flags) {
  flags.output.check_writable();
  LoadedModel model = load_model(flags.model.spec, flags.model.options);
  (void)graph::prepare_for_inference(model.graph);
  const int threads = flags.threads > 0 ? flags.threads : timing::detect_cpu().default_threads;
  planning::PlannerOptions options{.solver = flags.solver, .solve = {}, .target = tuning::host_target(threads),
                                  .costs = flags.model_costs ? "modelled" : "measured"};
  options.solve.time_limit_seconds = flags.time_limit_s;
  options.solve.memory_budget_bytes = dp_memory_budget();
  std::unique_ptr<planning::CostSource> costs;
  std::optional<costs::TransformTable> table;  // outlives `costs`, which points into it
  if (flags.model_costs) {
    costs = std::make_unique<planning::AnalyticCostModel>();
  } else {
    const tuning::LoadedLog log = load_records(flags, flags.model.spec, options.target);
    table = load_table(flags, flags.model.spec);
    auto measured = std::make_unique<costs::MeasuredCostSource>(
        model.graph, log.records, *table,
        costs::MeasuredCostOptions{options.target, threads, timing::cost_policy(threads), flags.records,
                                     flags.transforms, flags.model.spec});
    if (flags.confirm > 1) confirm_configs(flags, model.graph, *measured, log.records, options, threads);
    if (flags.calibrate_rounds > 0) calibrate_transforms(flags, model.graph, *measured, options, threads);
    costs = std::move(measured);
  }
  const planning::PlanResult result = planning::plan_layouts(model.graph, *costs, options);
  print_result(result, costs->name());
  planning::save_plan(result.plan, flags.output.path);
  std::cout << "wrote " << flags.output.path.string() << " (" << result.plan.nodes.size() << " nodes)\n";
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
  command->add_option("--threads", flags->threads,
                      "thread count the records and table were measured with (default: OpenMP's default)")
      ->check(CLI::PositiveNumber);
  command->add_option("--time-limit", flags->time_limit_s, "seconds pbqp may search")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--confirm", flags->confirm,
                      "time the chosen tuned configs again until each has this many timings (appended to --records); "
                      "0 or 1 plans from the records as they are")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->excludes("--model-costs");
  command->add_option("--calibrate-rounds", flags->calibrate_rounds,
                      "plans whose transforms are timed inside the compiled network (0: price them by the table)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->excludes("--model-costs");
  command->callback([flags] { run_plan(*flags); });
}

}  // namespace layoutopt::apps
