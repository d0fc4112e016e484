// `layoutopt optimize MODEL [--budget quick|normal|thorough | --time-budget S] [--threads N]
//   [--records R] [--transforms T] [--calibrate-rounds N] [-o plan.json] [--force]
//   [--json-summary F]`: the main job (pipeline::optimize_model, layoutopt/pipeline/optimize.h).
// Tunes the model's tasks (resuming from the record log), measures their untuned default
// configs, times the layout transforms the plans may need (extending the table), runs the
// plan step `layoutopt plan` runs (confirmation, calibration, the graph-tuned plan written to
// -o), then plans, compiles and times four variants side by side in this run:
//   default, history best, graph tuned (DP), graph tuned (PBQP)
// and prints predicted against measured latency for each, and each run's fraction of its
// compute limit (evaluation/compute_limit.h). Records and the transform table
// only ever grow; an existing plan or --json-summary file is replaced only with --force.

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/pipeline/budget.h"
#include "layoutopt/pipeline/optimize.h"
#include "layoutopt/pipeline/optimize_files.h"
#include "layoutopt/pipeline/output_path.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/pipeline/threads.h"
#ifdef LAYOUTOPT_WITH_MPI
#include "cluster_options.h"
#include "layoutopt/mpi/mpi_tune.h"
#endif

namespace layoutopt::apps {

namespace {

struct OptimizeFlags {
  ModelArgument model;
  std::string budget = std::string(pipeline::to_string(pipeline::BudgetLevel::quick));
  std::optional<double> time_budget_s;
  int threads = 0;
  pipeline::NamedOptimizeFiles files;  ///< --records, --transforms, -o; empty: out/MODEL/...
  bool force = false;
  std::string json_summary;
  int calibrate_rounds = pipeline::PlanPolicy{}.calibrate_rounds;
  bool quiet = false;
#ifdef LAYOUTOPT_WITH_MPI
  mpi::ClusterOptions cluster;  ///< used when started by mpirun
#endif
};

/// The request, its files prepared; refuses to replace a plan or summary without --force
/// before any work starts.
pipeline::OptimizeRequest request(const OptimizeFlags& flags, const graph::Graph& graph) {
  const pipeline::OptimizeFiles files = pipeline::default_output_paths(graph.name(), flags.files);
  if (!flags.json_summary.empty()) pipeline::check_replaceable(flags.json_summary, flags.force, "--force");
  pipeline::prepare_output_paths(files, flags.force, "--force");
  pipeline::OptimizeRequest request{.model = flags.model.spec,
                                    .files = files.measurements,
                                    .plan = files.plan,
                                    .threads = pipeline::resolve_threads(flags.threads),
                                    .budget = pipeline::TuningBudget::chosen(flags.budget, flags.time_budget_s),
                                    .quiet = flags.quiet};
  request.plan_policy.calibrate_rounds = flags.calibrate_rounds;
  return request;
}

void print_table(const std::vector<evaluation::VariantResult>& rows) {
  std::cout << "\n" << std::left << std::setw(20) << "variant" << std::right << std::setw(14) << "predicted ms"
            << std::setw(13) << "measured ms" << std::setw(16) << "round range" << std::setw(12) << "meas/pred"
            << std::setw(10) << "speedup" << std::setw(10) << "of limit" << std::setw(12) << "transforms" << std::setw(10)
            << "optimal" << std::setw(11) << "solve ms" << "\n";
  const double baseline = rows.front().measured.median;
  for (const evaluation::VariantResult& r : rows) {
    const timing::Summary& ms = r.measured;
    std::ostringstream quartiles;
    quartiles << std::fixed << std::setprecision(2) << ms.min << "-" << ms.max;
    std::cout << std::left << std::setw(20) << r.variant.name << std::right << std::fixed << std::setprecision(3)
              << std::setw(14) << r.predicted_ms() << std::setw(13) << ms.median << std::setw(16) << quartiles.str()
              << std::setprecision(2) << std::setw(12) << ms.median / r.predicted_ms() << std::setw(9)
              << baseline / ms.median << "x" << std::setw(9) << std::setprecision(0) << 100 * r.limit_fraction() << "%"
              << std::setprecision(2) << std::setw(12) << r.compiled.transforms << std::setw(10)
              << (r.planned.solution.optimal ? "yes" : "no") << std::setw(11) << r.planned.solution.seconds * 1e3
              << "\n";
  }
  // Rows with one schedule compile to the same network: what sets them apart is noise.
  for (size_t i = 0; i < rows.size(); ++i)
    if (const evaluation::VariantResult* same = pipeline::earlier_row_with_same_plan(rows, i))
      std::cout << rows[i].variant.name << " runs the same plan as " << same->variant.name
                << ": their measured difference is the timing's noise\n";
}

nlohmann::ordered_json summary_json(const graph::Graph& graph, const pipeline::OptimizeRequest& request,
                                    const pipeline::OptimizeReport& report) {
  const std::vector<evaluation::VariantResult>& rows = report.rows;
  nlohmann::ordered_json out{{"model", graph.name()},
                             {"target", report.target},
                             {"threads", report.threads},
                             {"records", request.files.records.string()},
                             {"transforms", request.files.transforms.string()},
                             {"plan", request.plan.string()},
                             {"variants", nlohmann::json::array()}};
  for (size_t i = 0; i < rows.size(); ++i) {
    const evaluation::VariantResult& r = rows[i];
    const evaluation::VariantResult* same = pipeline::earlier_row_with_same_plan(rows, i);
    out["variants"].push_back({{"name", r.variant.name},
                               {"solver", planning::to_string(r.planned.solver)},
                               {"predicted_ms", r.predicted_ms()},
                               {"median_ms", r.measured.median},
                               {"round_min_ms", r.measured.min},
                               {"round_max_ms", r.measured.max},
                               {"rounds", r.measured.count},
                               {"runs", r.runs},
                               {"compute_limit_ms", r.limit.limit_ms()},
                               {"limit_fraction", r.limit_fraction()},
                               {"transforms", r.compiled.transforms},
                               {"optimal", r.planned.solution.optimal},
                               {"solve_seconds", r.planned.solution.seconds},
                               {"same_plan_as", same ? nlohmann::json(same->variant.name) : nlohmann::json()}});
  }
  const auto faster = pipeline::row_faster_than_written(report);
  out["faster_than_written"] = faster ? nlohmann::json(faster->faster->variant.name) : nlohmann::json();
  nlohmann::ordered_json phases;
  for (const auto& [phase, seconds] : report.phases.seconds()) phases[pipeline::to_string(phase)] = seconds;
  out["phase_seconds"] = phases;
  return out;
}

// A row that beat the written plan in every round: what both measured, and for the untuned
// default how to run it.
void print_faster_row(const pipeline::FasterThanWritten& rows, int threads, const std::string& model) {
  const timing::Summary& faster = rows.faster->measured;
  const timing::Summary& written = rows.written->measured;
  std::cout << std::fixed << std::setprecision(3) << "note: " << rows.faster->variant.name
            << " ran faster than the written plan in every round: " << faster.median << " ms (rounds " << faster.min
            << "-" << faster.max << ") against " << written.median << " (" << written.min << "-" << written.max << ")";
  if (rows.faster->variant.costs == evaluation::VariantCosts::default_schedules)
    std::cout << "; `layoutopt bench " << model << " --threads " << threads << "` runs it";
  std::cout << "\n";
}

// Under mpirun (when built with MPI) every rank measures; only rank 0 has a report.
std::optional<pipeline::OptimizeReport> run_optimize(const OptimizeFlags& flags, const graph::Graph& graph,
                                                     const pipeline::OptimizeRequest& request) {
#ifdef LAYOUTOPT_WITH_MPI
  if (mpi::launched_by_mpirun()) return mpi::optimize_model_mpi(graph, request, flags.cluster);
#else
  (void)flags;
#endif
  return pipeline::optimize_model(graph, request);
}

void optimize(const OptimizeFlags& flags) {
  const LoadedModel model = load_prepared_and_warn(flags.model);
  const graph::Graph& graph = model.graph;
  const pipeline::OptimizeRequest optimize_request = request(flags, graph);
  pipeline::progress_reporter(flags.quiet)
      .note("optimizing " + graph.name() + " (" + model.source + "; " + model.preparation->summary() + ") on " +
            std::to_string(optimize_request.threads) + " threads");

  const std::optional<pipeline::OptimizeReport> ranked = run_optimize(flags, graph, optimize_request);
  if (!ranked) return;  // an MPI rank other than 0: rank 0 reports
  const pipeline::OptimizeReport& report = *ranked;
  print_table(report.rows);
  for (const std::string& why : report.refused) std::cout << "not run: " << why << "\n";
  std::cout << "phases: " << report.phases.summary() << "\n";
  std::cout << "\nwrote " << optimize_request.plan.string() << " (" << report.plan_variant
            << "); run it with `layoutopt bench " << flags.model.spec << " --plan " << optimize_request.plan.string()
            << " --threads " << report.threads << "`\n";
  if (const auto faster = pipeline::row_faster_than_written(report))
    print_faster_row(*faster, report.threads, flags.model.spec);
  if (!flags.json_summary.empty()) {
    std::ofstream out(flags.json_summary);
    out << summary_json(graph, optimize_request, report).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write '" + flags.json_summary + "'");
  }
}

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto flags = std::make_shared<OptimizeFlags>();
  CLI::App* command = app.add_subcommand(
      "optimize", "Tune, time transforms, plan the whole network, compile, and compare default / history best / graph tuned");
  add_model_argument(*command, flags->model);
  auto* budget = command->add_option("--budget", flags->budget, "tuning budget: " + pipeline::describe_budget_levels())
                     ->check(CLI::IsMember(pipeline::budget_level_names()))
                     ->capture_default_str();
  command
      ->add_option_function<double>(
          "--time-budget", [flags](const double& seconds) { flags->time_budget_s = seconds; },
          "tuning seconds instead of a named budget")
      ->check(positive_number())
      ->excludes(budget);
  add_threads_option(*command, flags->threads, "OpenMP threads for tuning, timing and running");
  command->add_option("--records", flags->files.records, "tuning log, resumed and appended (default out/MODEL/tune.jsonl)");
  command->add_option("--transforms", flags->files.transforms,
                      "transform table, extended (default out/MODEL/transforms.json)");
  command->add_option("-o,--output", flags->files.plan, "plan file to write (default out/MODEL/plan.json)");
  command->add_flag("--force", flags->force, "replace an existing plan file (and --json-summary file)");
  command->add_option("--json-summary", flags->json_summary, "also write the comparison as JSON to this file");
  command->add_option("--calibrate-rounds", flags->calibrate_rounds,
                      "plans whose steps are timed inside the compiled network "
                      "(0: price transforms by the table, nodes by the records)")
      ->check(non_negative_number())
      ->capture_default_str();
  add_quiet_flag(*command, flags->quiet);
#ifdef LAYOUTOPT_WITH_MPI
  add_cluster_options(*command, flags->cluster);
#endif
  command->callback([flags] { optimize(*flags); });
}

}  // namespace layoutopt::apps
