// `layoutopt tune MODEL --records tune.jsonl [--trials N | --time-budget S] [--threads N]
//   [--quiet] [--top-k K] [--task TASK | --exhaustive TASK]`: tunes every conv/dense task
// of a model (or only task TASK) with the XGBoost-guided tuner under one global budget,
// appending each measurement to an AutoTVM-format JSON-lines log at once. Rerunning with
// the same log resumes: configs in it are never measured again. --exhaustive sweeps one
// task's whole space instead (to check how close the tuner gets).
// Under `mpirun -n N` (when built with MPI) the ranks measure together and rank 0 keeps the
// log (mpi/include/layoutopt/mpi/mpi_tune.h); --mpi-allow-shared-host lets ranks share a
// host, for tests only.

#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/pipeline/tune_model.h"
#ifdef LAYOUTOPT_WITH_MPI
#include "cluster_options.h"
#include "layoutopt/mpi/mpi_tune.h"
#endif

namespace layoutopt::apps {

namespace {

struct TuneFlags {
  ModelArgument model;
  int threads = 0;
  pipeline::TuneRequest request;  ///< every other flag, with the library's defaults
#ifdef LAYOUTOPT_WITH_MPI
  mpi::ClusterOptions cluster;  ///< used when started by mpirun
#endif
};

std::string short_name(const tuning::TuningTask& task) {
  const std::string& name = task.name;
  return name.substr(0, name.find('.'));
}

void print_summary(const pipeline::TuneReport& report) {
  const std::vector<tuning::TuningTask>& tasks = report.tasks;
  const tuning::SessionResult& result = report.result;
  std::cout << "\n" << std::right << std::setw(4) << "#" << "  " << std::left << std::setw(24) << "task" << std::setw(34)
            << "workload" << std::right << std::setw(6) << "weight" << std::setw(8) << "trials" << std::setw(13)
            << "best GFLOPS" << std::setw(10) << "best ms" << std::setw(7) << "pairs" << "\n";
  for (size_t i = 0; i < tasks.size(); ++i) {
    const tuning::TaskOutcome& o = result.tasks[i];
    const std::string shapes = tasks[i].task_key().describe();
    const bool tuned = o.best_index.has_value();
    std::cout << std::right << std::setw(4) << i + 1 << "  " << std::left << std::setw(24) << short_name(tasks[i])
              << std::setw(34) << shapes << std::right << std::setw(6) << tasks[i].weight << std::setw(8) << o.trials
              << std::fixed << std::setprecision(1) << std::setw(13) << o.best_gflops << std::setprecision(4)
              << std::setw(10) << (tuned ? o.best_seconds * 1e3 : 0.0) << std::setw(7) << o.candidates.pair_count() << "\n";
  }
  std::cout << "estimated conv/dense time per inference (sum of weight x best, the faster algorithm of each workload): "
            << std::setprecision(3) << report.estimated_seconds * 1e3
            << " ms; " << result.new_trials << " new trials in " << std::setprecision(1) << result.seconds << " s\n";
}

void run_tune(const TuneFlags& flags) {
  const LoadedModel model = load_and_warn(flags.model);
  pipeline::TuneRequest request = flags.request;
  request.threads = pipeline::resolve_threads(flags.threads);
#ifdef LAYOUTOPT_WITH_MPI
  if (mpi::launched_by_mpirun()) {
    if (const std::optional<pipeline::TuneReport> report = mpi::tune_model_mpi(model.graph, request, flags.cluster))
      print_summary(*report);
    return;
  }
#endif
  print_summary(pipeline::tune_model(model.graph, request));
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto flags = std::make_shared<TuneFlags>();
  CLI::App* command = app.add_subcommand(
      "tune", "Tune every conv/dense task of a model (XGBoost-guided search), appending AutoTVM-format records");
  add_model_argument(*command, flags->model);
  pipeline::TuneRequest& request = flags->request;
  command->add_option("--records", request.records, "JSON-lines record log: resumed from and appended to")->required();
  auto* trials = command->add_option("--trials", request.trials, "new measurements in this run, over all tasks")
                     ->check(positive_number());
  command->add_option("--time-budget", request.time_budget_s, "wall-clock seconds for this run")
      ->check(positive_number())
      ->excludes(trials);
  add_threads_option(*command, flags->threads, "OpenMP threads per measurement");
  add_quiet_flag(*command, request.quiet);
  command->add_option("--top-k", request.top_k, "configs kept per (input, output) layout pair")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--batch-size", request.batch_size, "trials per scheduling decision")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--early-stopping", request.early_stopping, "stop a task after N trials without improvement")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_option("--min-repeat-ms", request.min_repeat_ms, "least timed milliseconds per measurement")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--tuner-seed", request.seed, "seed of the search")->capture_default_str();
  auto* exhaustive =
      command->add_option("--exhaustive", request.exhaustive, "sweep the whole space of task number TASK (1-based) instead")
          ->check(positive_number());
  command->add_option("--task", request.task, "tune only task number TASK (1-based, as `layoutopt info` lists them)")
      ->check(positive_number())
      ->excludes(exhaustive);
#ifdef LAYOUTOPT_WITH_MPI
  add_cluster_options(*command, flags->cluster);
#endif
  command->callback([flags] { run_tune(*flags); });
}

}  // namespace layoutopt::apps
