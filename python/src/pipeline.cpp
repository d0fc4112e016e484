#include "pipeline.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <string>

#include "layoutopt/pipeline/budget.h"
#include "layoutopt/pipeline/compile_model.h"
#include "layoutopt/pipeline/load_model.h"
#include "layoutopt/pipeline/load_schedule.h"
#include "layoutopt/pipeline/optimize.h"
#include "layoutopt/pipeline/optimize_files.h"
#include "layoutopt/pipeline/output_path.h"
#include "layoutopt/pipeline/plan_network.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/pipeline/tune_model.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/planning/plan_origin.h"
#include "layoutopt/runtime/session.h"

namespace py = pybind11;

namespace layoutopt::python {

namespace {

// Paths and models (a zoo name or a file) accept str and os.PathLike alike.
using Path = std::filesystem::path;

/// The CLI's rule for -o (pipeline/output_path.h), overridden with force=True.
void check_writable(const Path& path, bool force) { pipeline::check_writable(path, force, "force=True"); }

/// The thread count of a call: 0 is OpenMP's default (resolve_threads); a negative count is
/// refused, as the CLI's --threads refuses it, rather than read as the default.
void check_threads(int threads) {
  if (threads < 0) throw py::value_error("threads must be positive, or 0 for OpenMP's default; got " + std::to_string(threads));
}

int threads_argument(int threads) {
  check_threads(threads);
  return pipeline::resolve_threads(threads);
}

/// The options that had no effect on a model, as Python warnings (the CLI prints them).
graph::Graph warned(pipeline::LoadedModel loaded) {
  for (const std::string& warning : loaded.warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
  return std::move(loaded.graph);
}

/// batch= and seed= as the model's options: None unless given.
pipeline::ModelOptions model_options(std::optional<int64_t> batch, std::optional<uint64_t> seed) {
  return {.batch = batch, .seed = seed, .names = {"batch=", "seed="}};
}

/// The model as the CLI resolves it (GIL released).
graph::Graph loaded_model(const std::string& model, std::optional<int64_t> batch, std::optional<uint64_t> seed) {
  pipeline::LoadedModel loaded;
  {
    const py::gil_scoped_release released;
    loaded = pipeline::load_model(model, model_options(batch, seed));
  }
  return warned(std::move(loaded));
}

/// The model prepared for inference, as every planning command loads it (GIL released).
graph::Graph prepared_model(const std::string& model, std::optional<int64_t> batch, std::optional<uint64_t> seed) {
  pipeline::LoadedModel loaded;
  {
    const py::gil_scoped_release released;
    loaded = pipeline::load_prepared_model(model, model_options(batch, seed));
  }
  return warned(std::move(loaded));
}

py::dict solution_dict(const planning::PlanResult& planned) {
  const solvers::Solution& s = planned.solution;
  py::dict out;
  out["solver"] = planning::to_string(planned.solver);
  out["fallback_reason"] = planned.fallback_reason;
  out["problem_nodes"] = planned.problem_nodes;
  out["candidates"] = planned.candidates;
  out["cost_ms"] = s.cost;
  out["optimal"] = s.optimal;
  out["gap"] = s.gap() ? py::cast(*s.gap()) : py::none();
  out["solve_seconds"] = s.seconds;
  out["transforms"] = planned.plan.transforms.size();
  out["nodes"] = planned.plan.nodes.size();
  out["predicted_ms"] = planned.plan.predicted_ms;
  out["kernel_ms"] = planned.plan.kernel_ms();
  out["transform_ms"] = planned.plan.transform_ms();
  return out;
}

py::dict phases_dict(const pipeline::PhaseTimes& phases) {
  py::dict out;
  for (const auto& [phase, seconds] : phases.seconds()) out[py::str(pipeline::to_string(phase))] = seconds;
  return out;
}

// ---- plan --------------------------------------------------------------------------------

struct PlanArguments {
  std::string model;
  Path output;
  std::optional<Path> records, transforms;
  bool model_costs = false;
  std::string solver;
  int threads = 0;
  pipeline::PlanPolicy policy;
  bool force = false;
  bool quiet = false;
  std::optional<int64_t> batch;
  std::optional<uint64_t> seed;
};

py::dict plan(const PlanArguments& args) {
  check_writable(args.output, args.force);
  pipeline::PlanRequest request{.costs = args.model_costs ? planning::CostKind::modelled : planning::CostKind::measured,
                                .files = {args.records.value_or(Path()), args.transforms.value_or(Path())},
                                .plan = args.output,
                                .model = args.model,
                                .threads = threads_argument(args.threads),
                                .policy = args.policy,
                                .quiet = args.quiet};
  request.policy.solver = planning::parse_solver(args.solver);
  pipeline::check_cost_inputs(request.costs, request.files,
                              {.records = "records=", .transforms = "transforms=", .model_costs = "model_costs=True"});
  // The graph outlives the report: its measurements may point into it.
  graph::Graph graph = prepared_model(args.model, args.batch, args.seed);
  pipeline::PlanReport report;
  {
    const py::gil_scoped_release released;
    report = pipeline::plan_network(graph, request);
  }
  py::dict out = solution_dict(report.planned);
  out["costs"] = planning::to_string(report.planned.plan.costs);
  out["cost_source"] = report.cost_source;
  out["confirmed"] = report.confirmation ? py::cast(report.confirmation->summary()) : py::none();
  out["calibrated"] = report.calibration ? py::cast(report.calibration->summary()) : py::none();
  out["phase_seconds"] = phases_dict(report.phases);
  out["plan"] = args.output.string();
  return out;
}

// ---- optimize ----------------------------------------------------------------------------

py::dict variant_dict(const std::vector<evaluation::VariantResult>& rows, size_t i) {
  const evaluation::VariantResult& r = rows[i];
  const evaluation::VariantResult* same = pipeline::earlier_row_with_same_plan(rows, i);
  py::dict out = solution_dict(r.planned);
  out["name"] = r.variant.name;
  out["median_ms"] = r.measured.median;
  out["round_min_ms"] = r.measured.min;
  out["round_max_ms"] = r.measured.max;
  out["rounds"] = r.measured.count;
  out["runs"] = r.runs;
  out["compiled_transforms"] = r.compiled.transforms;
  out["same_plan_as"] = same ? py::cast(same->variant.name) : py::none();
  return out;
}

struct OptimizeArguments {
  std::string model;
  std::string budget;
  std::optional<double> time_budget;
  int threads = 0;
  std::optional<Path> records, transforms, output;
  bool force = false;
  int calibrate_rounds = 0;
  bool quiet = false;
  std::optional<int64_t> batch;
  std::optional<uint64_t> seed;
};

/// The request, its files prepared: out/<model>/... unless named, an existing plan refused
/// without force=True before any work.
pipeline::OptimizeRequest optimize_request(const OptimizeArguments& args, const graph::Graph& graph) {
  const pipeline::OptimizeFiles files = pipeline::default_output_paths(
      graph.name(), {args.records.value_or(Path()), args.transforms.value_or(Path()), args.output.value_or(Path())});
  pipeline::prepare_output_paths(files, args.force, "force=True");
  pipeline::OptimizeRequest request{.model = args.model,
                                    .files = files.measurements,
                                    .plan = files.plan,
                                    .threads = threads_argument(args.threads),
                                    .budget = pipeline::TuningBudget::chosen(args.budget, args.time_budget),
                                    .quiet = args.quiet};
  request.plan_policy.calibrate_rounds = args.calibrate_rounds;
  return request;
}

py::dict optimize(const OptimizeArguments& args) {
  graph::Graph graph = prepared_model(args.model, args.batch, args.seed);  // outlives the report, which may point into it
  const pipeline::OptimizeRequest request = optimize_request(args, graph);
  pipeline::OptimizeReport report;
  {
    const py::gil_scoped_release released;
    report = pipeline::optimize_model(graph, request);
  }
  py::list variants;
  for (size_t i = 0; i < report.rows.size(); ++i) variants.append(variant_dict(report.rows, i));
  py::dict out;
  out["target"] = report.target;
  out["threads"] = report.threads;
  out["records"] = request.files.records.string();
  out["transforms"] = request.files.transforms.string();
  out["plan"] = request.plan.string();
  out["plan_variant"] = report.plan_variant;
  out["variants"] = variants;
  out["refused"] = report.refused;
  out["phase_seconds"] = phases_dict(report.phases);
  return out;
}

// ---- tune --------------------------------------------------------------------------------

py::dict tune(const std::string& model, const pipeline::TuneRequest& request, std::optional<int64_t> batch,
             std::optional<uint64_t> seed) {
  const graph::Graph graph = loaded_model(model, batch, seed);
  pipeline::TuneReport report;
  {
    const py::gil_scoped_release released;
    report = pipeline::tune_model(graph, request);
  }
  py::list tasks;
  for (size_t i = 0; i < report.tasks.size(); ++i) {
    const tuning::TaskOutcome& o = report.result.tasks[i];
    py::dict task;
    task["name"] = report.tasks[i].name;
    task["weight"] = report.tasks[i].weight;
    task["trials"] = o.trials;
    task["resumed"] = o.resumed;
    task["best_gflops"] = o.best_gflops;
    task["best_ms"] = o.best_index ? py::cast(o.best_seconds * 1e3) : py::none();
    task["pairs"] = o.candidates.pair_count();
    tasks.append(task);
  }
  py::dict out;
  out["target"] = report.target;
  out["tasks"] = tasks;
  out["new_trials"] = report.result.new_trials;
  out["unmatched_records"] = report.result.unmatched_records;
  out["seconds"] = report.result.seconds;
  out["estimated_ms"] = report.estimated_seconds * 1e3;
  return out;
}

// ---- compile ------------------------------------------------------------------------------

struct CompileArguments {
  std::string model;
  Path directory;
  std::optional<Path> plan;
  int threads = 0;
  bool force = false;
  bool quiet = false;
  std::optional<int64_t> batch;
  std::optional<uint64_t> seed;
};

py::dict compile(const CompileArguments& args) {
  check_threads(args.threads);  // 0 stays 0: compile_model records OpenMP's default itself
  const graph::Graph graph = prepared_model(args.model, args.batch, args.seed);
  kernels::AheadOfTimeResult result;
  {
    const py::gil_scoped_release released;
    pipeline::LoadedSchedule schedule = pipeline::load_schedule(graph, args.plan.value_or(Path()));
    result = pipeline::compile_model(
        {.graph = graph,
         .schedule = std::move(schedule.schedule),
         .plan_target = schedule.plan ? schedule.plan->target : std::string(),
         .directory = args.directory,
         .threads = args.threads,
         .quiet = args.quiet,
         .force = args.force,
         .force_hint = "force=True"});
  }
  py::dict out;
  out["directory"] = args.directory.string();
  out["steps"] = result.steps;
  out["transforms"] = result.transforms;
  out["symbols"] = result.symbols;
  out["weight_bytes"] = result.weight_bytes;
  out["cpu"] = result.cpu;
  out["cpu_features"] = result.cpu_features;
  out["seconds"] = result.seconds;
  return out;
}

}  // namespace

void bind_pipeline(py::module_& module) {
  module.def(
      "compile",
      [](const Path& model, const Path& output, std::optional<Path> plan, int threads, bool force, bool quiet,
         std::optional<int64_t> batch, std::optional<uint64_t> seed) {
        return compile({model.string(), output, std::move(plan), threads, force, quiet, batch, seed});
      },
      py::arg("model"), py::arg("output"), py::kw_only(), py::arg("plan") = py::none(), py::arg("threads") = 0,
      py::arg("force") = false, py::arg("quiet") = false, py::arg("batch") = py::none(), py::arg("seed") = py::none(),
      "`layoutopt compile MODEL -o OUTPUT`: compiles the model for a plan (or the default schedule) ahead of time "
      "into an artifact folder for Session.load. An existing artifact is replaced only with force=True.");
  const pipeline::PlanPolicy policy;
  module.def(
      "plan",
      [](const Path& model, const Path& output, std::optional<Path> records, std::optional<Path> transforms,
         bool model_costs, const std::string& solver, int threads, double time_limit, int confirm,
         int calibrate_rounds, bool force, bool quiet, std::optional<int64_t> batch, std::optional<uint64_t> seed) {
        pipeline::PlanPolicy p;
        p.time_limit_s = time_limit;
        p.confirm_timings = confirm;
        p.calibrate_rounds = calibrate_rounds;
        return plan({model.string(), output, std::move(records), std::move(transforms), model_costs, solver, threads, p, force,
                     quiet, batch, seed});
      },
      py::arg("model"), py::arg("output"), py::kw_only(), py::arg("records") = py::none(),
      py::arg("transforms") = py::none(), py::arg("model_costs") = false,
      py::arg("solver") = planning::to_string(policy.solver), py::arg("threads") = 0,
      py::arg("time_limit") = policy.time_limit_s, py::arg("confirm") = policy.confirm_timings,
      py::arg("calibrate_rounds") = policy.calibrate_rounds, py::arg("force") = false, py::arg("quiet") = false,
      py::arg("batch") = py::none(), py::arg("seed") = py::none(),
      "`layoutopt plan MODEL -o OUTPUT`: plans the whole network from records= and transforms= (or "
      "model_costs=True) and writes the plan. Returns the figures the CLI prints.");
  module.def(
      "optimize",
      [](const Path& model, const std::string& budget, std::optional<double> time_budget, int threads,
         std::optional<Path> records, std::optional<Path> transforms, std::optional<Path> output, bool force,
         int calibrate_rounds, bool quiet, std::optional<int64_t> batch, std::optional<uint64_t> seed) {
        return optimize({model.string(), budget, time_budget, threads, std::move(records), std::move(transforms),
                         std::move(output), force, calibrate_rounds, quiet, batch, seed});
      },
      py::arg("model"), py::kw_only(), py::arg("budget") = std::string(pipeline::to_string(pipeline::BudgetLevel::quick)),
      py::arg("time_budget") = py::none(), py::arg("threads") = 0, py::arg("records") = py::none(),
      py::arg("transforms") = py::none(), py::arg("output") = py::none(), py::arg("force") = false,
      py::arg("calibrate_rounds") = policy.calibrate_rounds, py::arg("quiet") = false, py::arg("batch") = py::none(),
      py::arg("seed") = py::none(),
      "`layoutopt optimize MODEL`: tune, time transforms, plan, compile and compare default / history best / "
      "graph tuned. Files default to out/MODEL/. Returns the comparison's rows and the phases' seconds.");
  // The library's defaults (pipeline::TuneRequest), as the CLI's flags have them.
  const pipeline::TuneRequest tuning;
  module.def(
      "tune",
      [](const Path& model, const Path& records, int64_t trials, double time_budget, int threads, bool quiet,
         size_t top_k, int64_t batch_size, int64_t early_stopping, double min_repeat_ms, uint64_t tuner_seed,
         size_t task, size_t exhaustive, std::optional<int64_t> batch, std::optional<uint64_t> seed) {
        return tune(model.string(),
                    {.records = records,
                     .trials = trials,
                     .time_budget_s = time_budget,
                     .threads = threads_argument(threads),
                     .quiet = quiet,
                     .top_k = top_k,
                     .batch_size = batch_size,
                     .early_stopping = early_stopping,
                     .min_repeat_ms = min_repeat_ms,
                     .seed = tuner_seed,
                     .task = task,
                     .exhaustive = exhaustive},
                    batch, seed);
      },
      py::arg("model"), py::kw_only(), py::arg("records"), py::arg("trials") = tuning.trials,
      py::arg("time_budget") = tuning.time_budget_s, py::arg("threads") = 0, py::arg("quiet") = tuning.quiet,
      py::arg("top_k") = tuning.top_k, py::arg("batch_size") = tuning.batch_size,
      py::arg("early_stopping") = tuning.early_stopping, py::arg("min_repeat_ms") = tuning.min_repeat_ms,
      py::arg("tuner_seed") = tuning.seed, py::arg("task") = tuning.task, py::arg("exhaustive") = tuning.exhaustive,
      py::arg("batch") = py::none(), py::arg("seed") = py::none(),
      "`layoutopt tune MODEL --records R`: tunes the conv/dense tasks, appending to the record log. Give trials= "
      "or time_budget=. Returns each task's trials and best time, and the estimated conv/dense time.");
}

}  // namespace layoutopt::python
