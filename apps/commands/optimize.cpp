// `layoutopt optimize MODEL [--budget quick|normal|thorough | --time-budget S] [--threads N]
//   [--records R] [--transforms T] [--calibrate-rounds N] [-o plan.json] [--force]
//   [--json-summary F]`: the main job.
// Tunes the model's tasks (resuming from the record log), measures their untuned default
// configs, times the layout transforms the plans may need (extending the table), re-times the
// configs the plans choose, prices the transforms the graph-tuned plan chooses by their time
// inside its compiled network (transform_calibration.h), then plans, compiles and times four
// variants side by side in this run:
//   default, history best, graph tuned (DP), graph tuned (PBQP)
// and prints predicted against measured latency for each. The graph-tuned plan with the
// lowest predicted latency (DP's, unless DP refused the problem) is written to -o. Records and the transform table only ever grow; an existing plan is replaced
// only with --force.

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "commands.h"
#include "measurement_files.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/costs/config_confirmation.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/cpu_info.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/evaluation/end_to_end.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/costs/network_timing.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/costs/transform_calibration.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/solvers/error.h"

namespace layoutopt::apps {

namespace {

struct OptimizeFlags {
  ModelArgument model;
  std::string budget = "quick";
  double time_budget_s = 0;
  int threads = 0;
  std::string records;
  std::string transforms;
  std::string plan;
  bool force = false;
  std::string json_summary;
  int calibrate_rounds = costs::CalibrationOptions{}.max_rounds;
  bool quiet = false;
};

/// Tuning seconds of a named budget: quick is enough for a first plan of a small network,
/// thorough for the figures in the README.
double budget_seconds(const OptimizeFlags& flags) {
  if (flags.time_budget_s > 0) return flags.time_budget_s;
  if (flags.budget == "quick") return 60;
  if (flags.budget == "normal") return 600;
  return 3600;
}

/// out/<model>/<file> unless the user named the file.
std::filesystem::path default_path(const std::string& given, const graph::Graph& graph, const std::string& file) {
  if (!given.empty()) return given;
  return std::filesystem::path("out") / graph.name() / file;
}

void make_parent(const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
}

struct Paths {
  std::filesystem::path records, transforms, plan;
};

Paths resolve_paths(const OptimizeFlags& flags, const graph::Graph& graph) {
  Paths paths{default_path(flags.records, graph, "tune.jsonl"), default_path(flags.transforms, graph, "transforms.json"),
              default_path(flags.plan, graph, "plan.json")};
  if (std::filesystem::exists(paths.plan) && !flags.force)
    throw std::runtime_error("'" + paths.plan.string() + "' exists; pass --force to replace it, or -o another plan file");
  for (const auto& path : {paths.records, paths.transforms, paths.plan}) make_parent(path);
  return paths;
}

/// Tunes under the budget and measures the default configs, appending every trial to the log.
std::vector<tuning::MeasureRecord> tune(const std::vector<tuning::TuningTask>& tasks, const Paths& paths,
                                         const std::string& target, int threads, double seconds, bool quiet) {
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(quiet)});
  tuning::LoadedLog log = load_records_warning(paths.records, target, progress);
  progress.note("[1/4] tuning " + std::to_string(tasks.size()) + " tasks for " + std::to_string(static_cast<int>(seconds)) +
                " s on " + target + (log.records.empty() ? "" : ", resuming from " + std::to_string(log.records.size()) +
                                                                     " records") + " (" + paths.records.string() + ")");
  tuning::KernelMeasurer measurer(timing::cost_policy(threads));
  tuning::RecordWriter writer(paths.records);
  tuning::SessionOptions options;
  options.target = target;
  options.time_budget_s = seconds;
  auto append = [&](const tuning::MeasureRecord& r) {
    writer.append(r);
    log.records.push_back(r);
  };
  const std::vector<tuning::MeasureRecord> history = log.records;
  (void)tuning::tune_tasks(tasks, history, measurer, append, options, &progress);
  progress.finish();
  // The default baseline runs each workload's direct algorithm only.
  const std::vector<tuning::TuningTask> defaulted = tuning::default_algorithm_tasks(tasks);
  const auto defaults = tuning::measure_default_configs(defaulted, log.records, measurer, target, append);
  progress.note("[2/4] default configs: " + std::to_string(defaults.size()) + " measured now, " +
                std::to_string(defaulted.size() - defaults.size()) + " from the log");
  return log.records;
}

costs::TransformTable bench_transforms(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                                         const Paths& paths, const std::vector<tuning::MeasureRecord>& records,
                                         const std::string& target, int threads, bool quiet) {
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(quiet)});
  costs::TransformTable table = load_table_warning(paths.transforms, progress);
  const auto keys = costs::enumerate_transforms(graph, costs::tuned_blocks(tasks, records, target));
  const costs::FillResult filled =
      fill_and_save_table(table, paths.transforms, keys, timing::cost_policy(threads), target, progress);
  progress.note("[3/4] transforms: " + std::to_string(keys.size()) + " needed, " + std::to_string(filled.measured) +
                " timed now, " + std::to_string(filled.reused) + " from " + paths.transforms.string());
  return table;
}

/// Times the tuned configs that the default, history-best and graph-tuned plans choose again
/// until each has 3 timings (config_confirmation.h), so every row predicts from medians and
/// the graph-tuned plan weighs the default configs at the same prices the default row pays.
/// Returns the default configs' prices read from the grown log (default_configs.h).
std::map<std::string, double> confirm_configs(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                                              costs::MeasuredCostSource& costs,
                                              std::vector<tuning::MeasureRecord>& records,
                                              const planning::PlannerOptions& planner, const Paths& paths, int threads,
                                              bool quiet) {
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(quiet)});
  tuning::KernelMeasurer measurer(timing::cost_policy(threads));
  tuning::RecordWriter writer(paths.records);
  // The default row's choices do not depend on its configs' prices, so one reading serves
  // every round.
  const auto default_seconds = tuning::default_config_seconds(tasks, records, planner.target);
  const auto replan = [&] {
    std::vector<planning::Plan> plans;
    for (const evaluation::Variant& variant : evaluation::standard_variants())
      if (variant.costs != evaluation::VariantCosts::measured || variant.solver == "dp")
        plans.push_back(
            evaluation::plan_variant(graph, {variant.name, variant.costs, "auto"}, costs, default_seconds, planner).plan);
    return plans;
  };
  const costs::ConfirmationReport report = costs::confirm_chosen_configs(
      graph, costs, records, measurer, [&](const tuning::MeasureRecord& r) { writer.append(r); }, replan,
      {.target = planner.target}, &progress);
  progress.finish();
  progress.note("[4/4] confirmed: " + report.summary());
  return tuning::default_config_seconds(tasks, records, planner.target);
}

/// Prices the transforms the graph-tuned plan chooses by their time inside its compiled
/// network, planning again until it chooses only transforms so timed (transform_calibration.h).
/// Every measured row (history best, graph tuned) is then planned with those prices.
void calibrate_transforms(const graph::Graph& graph, costs::MeasuredCostSource& costs,
                          const std::map<std::string, double>& default_seconds, const planning::PlannerOptions& planner,
                          int rounds, bool quiet) {
  if (rounds <= 0) return;
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(quiet)});
  const evaluation::Variant graph_tuned{"graph tuned", evaluation::VariantCosts::measured, "auto"};
  const auto replan = [&] { return evaluation::plan_variant(graph, graph_tuned, costs, default_seconds, planner).plan; };
  const costs::CalibrationReport report =
      costs::calibrate_transforms(graph, costs, replan, {.max_rounds = rounds}, &progress);
  progress.finish();
  progress.note("[4/4] " + report.summary());
}

/// The graph-tuned row with the lowest predicted latency (DP's when it ran: it is proven optimal).
const evaluation::VariantResult& best_graph_tuned(const std::vector<evaluation::VariantResult>& rows) {
  const evaluation::VariantResult* best = nullptr;
  for (const evaluation::VariantResult& row : rows)
    if (row.variant.costs == evaluation::VariantCosts::measured && (!best || row.predicted_ms() < best->predicted_ms() - 1e-9))
      best = &row;
  if (best == nullptr) throw std::runtime_error("no graph-tuned plan could be made");
  return *best;
}

/// The first row before rows[i] that runs the same schedule, or null.
const evaluation::VariantResult* same_plan_before(const std::vector<evaluation::VariantResult>& rows, size_t i) {
  for (size_t j = 0; j < i; ++j)
    if (planning::same_schedule(rows[j].planned.plan, rows[i].planned.plan)) return &rows[j];
  return nullptr;
}

void print_table(const std::vector<evaluation::VariantResult>& rows) {
  std::cout << "\n" << std::left << std::setw(20) << "variant" << std::right << std::setw(14) << "predicted ms"
            << std::setw(13) << "measured ms" << std::setw(16) << "round range" << std::setw(12) << "meas/pred"
            << std::setw(10) << "speedup" << std::setw(12) << "transforms" << std::setw(10) << "optimal" << std::setw(11)
            << "solve ms" << "\n";
  const double baseline = rows.front().measured.median;
  for (const evaluation::VariantResult& r : rows) {
    const timing::Summary& ms = r.measured;
    std::ostringstream quartiles;
    quartiles << std::fixed << std::setprecision(2) << ms.min << "-" << ms.max;
    std::cout << std::left << std::setw(20) << r.variant.name << std::right << std::fixed << std::setprecision(3)
              << std::setw(14) << r.predicted_ms() << std::setw(13) << ms.median << std::setw(16) << quartiles.str()
              << std::setprecision(2) << std::setw(12) << ms.median / r.predicted_ms() << std::setw(9)
              << baseline / ms.median << "x" << std::setw(12) << r.compiled.transforms << std::setw(10)
              << (r.planned.solution.optimal ? "yes" : "no") << std::setw(11) << r.planned.solution.seconds * 1e3
              << "\n";
  }
  // Rows with one schedule compile to the same network: what sets them apart is noise.
  for (size_t i = 0; i < rows.size(); ++i)
    if (const evaluation::VariantResult* same = same_plan_before(rows, i))
      std::cout << rows[i].variant.name << " runs the same plan as " << same->variant.name
                << ": their measured difference is the timing's noise\n";
}

nlohmann::ordered_json summary_json(const graph::Graph& graph, const std::string& target, int threads,
                                    const Paths& paths, const std::vector<evaluation::VariantResult>& rows) {
  nlohmann::ordered_json out{{"model", graph.name()},     {"target", target},
                             {"threads", threads},        {"records", paths.records.string()},
                             {"transforms", paths.transforms.string()}, {"plan", paths.plan.string()},
                             {"variants", nlohmann::json::array()}};
  for (size_t i = 0; i < rows.size(); ++i) {
    const evaluation::VariantResult& r = rows[i];
    const evaluation::VariantResult* same = same_plan_before(rows, i);
    out["variants"].push_back({{"name", r.variant.name},
                               {"solver", r.planned.solver},
                               {"predicted_ms", r.predicted_ms()},
                               {"median_ms", r.measured.median},
                               {"round_min_ms", r.measured.min},
                               {"round_max_ms", r.measured.max},
                               {"rounds", r.measured.count},
                               {"runs", r.runs},
                               {"transforms", r.compiled.transforms},
                               {"optimal", r.planned.solution.optimal},
                               {"solve_seconds", r.planned.solution.seconds},
                               {"same_plan_as", same ? nlohmann::json(same->variant.name) : nlohmann::json()}});
  }
  return out;
}

void optimize(const OptimizeFlags& flags) {
  LoadedModel model = load_model(flags.model.spec, flags.model.options);
  const graph::PipelineReport prepared = graph::prepare_for_inference(model.graph);
  const graph::Graph& graph = model.graph;
  const Paths paths = resolve_paths(flags, graph);
  const int threads = flags.threads > 0 ? flags.threads : timing::detect_cpu().default_threads;
  const std::string target = tuning::host_target(threads);
  const timing::ThreadScope scope(threads);
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(flags.quiet)});
  progress.note("optimizing " + graph.name() + " (" + model.source + "; " + prepared.summary() + ") on " +
                std::to_string(threads) + " threads");

  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  std::vector<tuning::MeasureRecord> records = tune(tasks, paths, target, threads, budget_seconds(flags), flags.quiet);
  const costs::TransformTable table = bench_transforms(graph, tasks, paths, records, target, threads, flags.quiet);
  costs::MeasuredCostSource costs(
      graph, records, table,
      {target, threads, timing::cost_policy(threads), paths.records, paths.transforms, flags.model.spec});

  warn_if_passive_openmp_wait();
  evaluation::EndToEndOptions options{{.solver = "dp", .solve = {}, .target = target, .costs = "measured"},
                                   costs::network_policy(threads, 300.0)};
  options.planner.solve.time_limit_seconds = 10;
  options.planner.solve.memory_budget_bytes = dp_memory_budget();
  options.rounds = 5;
  const auto default_seconds = confirm_configs(graph, tasks, costs, records, options.planner, paths, threads, flags.quiet);
  calibrate_transforms(graph, costs, default_seconds, options.planner, flags.calibrate_rounds, flags.quiet);
  progress.note("[4/4] planning and compiling default, history best, graph tuned (DP, PBQP); timing them in " +
                std::to_string(options.rounds) + " alternating rounds");
  std::vector<std::string> refused;
  const std::vector<evaluation::VariantResult> rows =
      evaluation::evaluate_variants(graph, evaluation::standard_variants(), costs, default_seconds, options, &refused);
  progress.finish();
  print_table(rows);
  for (const std::string& why : refused) std::cout << "not run: " << why << "\n";
  const evaluation::VariantResult& best = best_graph_tuned(rows);
  planning::save_plan(best.planned.plan, paths.plan);
  std::cout << "\nwrote " << paths.plan.string() << " (" << best.variant.name << "); run it with `layoutopt bench "
            << flags.model.spec << " --plan " << paths.plan.string() << " --threads " << threads << "`\n";
  if (!flags.json_summary.empty()) {
    std::ofstream out(flags.json_summary);
    out << summary_json(graph, target, threads, paths, rows).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write '" + flags.json_summary + "'");
  }
}

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto flags = std::make_shared<OptimizeFlags>();
  CLI::App* command = app.add_subcommand(
      "optimize", "Tune, time transforms, plan the whole network, compile, and compare default / history best / graph tuned");
  add_model_argument(*command, flags->model);
  auto* budget = command->add_option("--budget", flags->budget, "tuning budget: quick (60 s), normal (600 s), thorough (3600 s)")
                     ->check(CLI::IsMember({"quick", "normal", "thorough"}))
                     ->capture_default_str();
  command->add_option("--time-budget", flags->time_budget_s, "tuning seconds instead of a named budget")
      ->check(CLI::PositiveNumber)
      ->excludes(budget);
  command->add_option("--threads", flags->threads, "OpenMP threads for tuning, timing and running")
      ->check(CLI::PositiveNumber);
  command->add_option("--records", flags->records, "tuning log, resumed and appended (default out/MODEL/tune.jsonl)");
  command->add_option("--transforms", flags->transforms, "transform table, extended (default out/MODEL/transforms.json)");
  command->add_option("-o,--output", flags->plan, "plan file to write (default out/MODEL/plan.json)");
  command->add_flag("--force", flags->force, "replace an existing plan file");
  command->add_option("--json-summary", flags->json_summary, "also write the comparison as JSON to this file");
  command->add_option("--calibrate-rounds", flags->calibrate_rounds,
                      "plans whose transforms are timed inside the compiled network (0: price them by the table)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_flag("--quiet", flags->quiet, "no progress output");
  command->callback([flags] { optimize(*flags); });
}

}  // namespace layoutopt::apps
