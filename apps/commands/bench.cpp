// `layoutopt bench MODEL [--plan plan.json] [--threads N] [--min-seconds S] [--profile
//   [--losses N]] [--json]`: compiles the model for its plan (or the default schedule) and times whole
// inferences on random inputs with the shared timing harness: warm-up, then at least 10
// runs and S / 3 seconds per round, in 3 rounds that must agree (timing/steady_rounds.h: rounds whose medians
// swing above 1.15x are timed again, at most 3 more, the latest 3 kept); the middle kept
// round's median with quartiles. --profile adds where the time goes (each step's
// share of the median profiled run: its median, scaled so the steps add up to that run); --json prints one object for scripts:
//   {"model": .., "plan": .., "threads": 2, "median_ms": .., "q1_ms": .., "q3_ms": .., "min_ms": ..,
//    "max_ms": .., "runs": .., "rounds": .., "retimed_rounds": .., "rounds_steady": .., "predicted_ms": .., "kernels": .., "transforms": .., "fallbacks": ..,
//    "output_head": [..]} (the first 8 outputs on the benchmark peers' seeded input, for
// models with one input: evaluation/peer_output.h)
// and with --profile also "profile": {"run_ms": .., "steps": [{"name", "kind", "detail",
// "measured_ms", "predicted_ms" (null when the plan has none)}, ...]} in program order, and
// "prediction_check" (with a plan): {"run_ratio", "prices_hold", "host_moved", "misses":
// [{"type", "ratio"}], "verdict"} (evaluation/prediction_check.h), and
// "compute_limit": {"direct_gflop", "executed_gflop", "winograd_convs", "peak_gflops",
// "limit_ms", "fraction"}: the network's FLOPs at the measured FMA peak and the median run's
// fraction of it (evaluation/compute_limit.h), and "roofline": {"floor_ms", "memory_bound_ms",
// "bandwidth_gbps", "fraction", "types": [{"type", "steps", "floor_ms", "memory_bound_ms",
// "measured_ms", "fraction"}], "largest_losses": [{"node", "type", "floor_ms", "measured_ms",
// "fraction"}]}: each step at the peak or the measured read bandwidth, whichever binds
// (evaluation/roofline.h), per operator its steps in the profiled run, and the --losses steps
// (8 unless asked) that lose most time to their floors.

#include <algorithm>
#include <map>
#include <sstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "scheduled_model.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/costs/network_timing.h"
#include "layoutopt/costs/side_by_side.h"
#include "layoutopt/evaluation/compute_limit.h"
#include "layoutopt/evaluation/peer_output.h"
#include "layoutopt/evaluation/prediction_check.h"
#include "layoutopt/evaluation/roofline.h"
#include "layoutopt/evaluation/step_profile.h"
#include "layoutopt/pipeline/openmp_wait.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/timing/memory_bandwidth.h"
#include "layoutopt/timing/peak_flops.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/timing/steady_rounds.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::apps {

namespace {

constexpr int kProfiledRuns = 20;
constexpr timing::RoundPolicy kBenchRounds{.rounds = 3, .max_retimed = 3};

/// The network's runs in rounds that must agree, and the round reported.
struct RoundedTiming {
  timing::Timing middle;  ///< the kept round whose median is the middle one
  timing::SteadyRounds rounds;
};

/// Times `network` in kBenchRounds rounds of `policy`'s runs each (min_repeat_ms split among
/// the rounds), timing again while they swing.
RoundedTiming time_in_rounds(kernels::CompiledNetwork& network, const graph::Graph& graph, timing::TimingPolicy policy) {
  policy.min_repeat_ms /= kBenchRounds.rounds;
  std::vector<timing::Timing> timed;
  const timing::SteadyRounds rounds = timing::time_steady_rounds(kBenchRounds, [&] {
    timed.push_back(costs::time_network(network, graph, policy));
    return std::vector<double>{timed.back().ms.median};
  });
  std::vector<const timing::Timing*> kept;
  for (size_t r = timed.size() - rounds.kept.size(); r < timed.size(); ++r) kept.push_back(&timed[r]);
  std::sort(kept.begin(), kept.end(), [](const timing::Timing* a, const timing::Timing* b) { return a->ms.median < b->ms.median; });
  return {*kept[kept.size() / 2], rounds};
}

// Alternating rounds of the network with and without forks under --side-by-side.
constexpr int kSideBySideRounds = 6;

struct BenchFlags {
  ScheduledModelArgument scheduled;
  int threads = 0;
  double min_seconds = 2.0;
  bool profile = false;
  size_t losses = 8;  ///< steps listed that lose most time to their floors (with profile)
  bool side_by_side = false;
  bool json = false;
};

/// Each fork as {"begin", "end", "lanes"}: steps [begin, end) and each one's lane.
nlohmann::ordered_json fork_json(const std::vector<kernels::Fork>& forks) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const kernels::Fork& fork : forks) out.push_back({{"begin", fork.begin}, {"end", fork.end}, {"lanes", fork.lanes}});
  return out;
}

/// Steps the forks run side by side, over all forks.
size_t forked_steps(const std::vector<kernels::Fork>& forks) {
  size_t steps = 0;
  for (const kernels::Fork& fork : forks) steps += fork.lanes.size();
  return steps;
}

std::string megabytes(int64_t bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e6 << " MB";
  return text.str();
}

void print_compile(const kernels::CompileSummary& s) {
  std::cout << "compiled:   " << s.kernels << " kernels, " << s.transforms << " transforms, " << s.fallbacks
            << " reference fallbacks, " << s.views << " views, " << s.in_place << " in place, "
            << s.concat_inputs_placed << " concat inputs placed; arena "
            << megabytes(s.arena_bytes) << " (" << megabytes(s.tensor_bytes) << " without reuse), weights "
            << megabytes(s.constant_bytes) << (s.scratch_bytes > 0 ? ", Winograd scratch " + megabytes(s.scratch_bytes) : "")
            << "; " << std::setprecision(0) << std::fixed << s.kernel_compile_ms
            << " ms JIT, " << std::setprecision(2) << s.seconds << " s in all\n";
}

/// Median time of each step over `runs` profiled runs, next to the plan's prediction for it.
evaluation::StepProfile profile_steps(kernels::CompiledNetwork& network, const ScheduledModel& scheduled, int runs) {
  const planning::Plan* plan = scheduled.plan ? &*scheduled.plan : nullptr;
  return evaluation::profile_against_plan(network.steps(), costs::profile_network(network, runs), plan);
}

/// The first `count` of the steps `keep` accepts, in the order `ahead` sorts them.
template <class Ahead, class Keep>
std::vector<const evaluation::StepTime*> top_steps(const std::vector<evaluation::StepTime>& steps, size_t count,
                                                   const Ahead& ahead, const Keep& keep) {
  std::vector<const evaluation::StepTime*> order;
  for (const evaluation::StepTime& step : steps)
    if (keep(step)) order.push_back(&step);
  std::sort(order.begin(), order.end(), [&](const auto* a, const auto* b) { return ahead(*a, *b); });
  if (order.size() > count) order.resize(count);
  return order;
}

/// How long the threads wait outside kernel bodies, in all and in the steps that wait most.
void print_waiting(const evaluation::StepProfile& profile) {
  using evaluation::StepTime;
  const evaluation::ThreadWaiting waiting = profile.waiting();
  std::cout << "  waiting:  the threads spent " << std::fixed << std::setprecision(3) << waiting.wait_ms
            << " ms each outside kernel bodies (at barriers, claiming items, between steps), "
            << std::setprecision(1) << 100.0 * waiting.wait_ms / std::max(waiting.recorded_ms, 1e-9) << "% of the "
            << std::setprecision(3) << waiting.recorded_ms << " ms of steps that record it";
  if (waiting.unrecorded_steps > 0)
    std::cout << " (" << waiting.unrecorded_steps
              << " steps do not: transforms, reference steps, concats with nothing to copy)";
  std::cout << "\n  most waiting:            wait ms  of step\n";
  const auto waits_longer = [](const StepTime& a, const StepTime& b) { return *a.wait_ms > *b.wait_ms; };
  const auto recorded = [](const StepTime& t) { return t.wait_ms.has_value(); };
  for (const StepTime* step : top_steps(profile.steps, 8, waits_longer, recorded)) {
    const StepTime& time = *step;
    std::cout << "  " << std::left << std::setw(26) << time.step->name.substr(0, 25) << std::right << std::setw(9)
              << std::setprecision(3) << *time.wait_ms << std::setw(8) << std::setprecision(0)
              << 100.0 * *time.wait_ms / std::max(time.measured_ms, 1e-9) << "%  " << kernels::to_string(time.step->kind)
              << " " << time.step->detail << "\n";
  }
}

/// Totals per step type and whether they hold their prices, how long the threads wait, then
/// the slowest steps and those furthest above the plan.
void print_profile(const evaluation::StepProfile& profile, int runs) {
  using evaluation::StepTime;
  const std::vector<StepTime>& steps = profile.steps;
  const std::vector<evaluation::StepTypeTotals> types = profile.types();
  std::cout << "profile:    each step's share of the median of " << runs << " profiled runs (" << std::fixed
            << std::setprecision(3) << profile.run_ms << " ms)\n"
            << "  steps                     count  measured ms  predicted ms\n";
  for (const evaluation::StepTypeTotals& type : types)
    std::cout << "  " << std::left << std::setw(24) << type.type << std::right << std::setw(7) << type.steps
              << std::fixed << std::setprecision(3) << std::setw(13) << type.measured_ms << std::setw(14)
              << type.predicted_ms << "\n";
  if (profile.planned) std::cout << "  prices: " << evaluation::check_predictions(types).verdict() << "\n";
  const auto print_steps = [&](const std::string& title, const auto& ahead) {
    std::cout << "  " << std::left << std::setw(17) << title << std::right << "measured  predicted\n";
    for (const StepTime* step : top_steps(steps, 15, ahead, [](const StepTime&) { return true; })) {
      const StepTime& time = *step;
      std::ostringstream predicted_text;
      if (time.predicted_ms) predicted_text << std::fixed << std::setprecision(3) << *time.predicted_ms;
      std::cout << "  " << std::left << std::setw(26) << time.step->name.substr(0, 25) << std::right << std::setw(9)
                << std::setprecision(3) << time.measured_ms << " ms" << std::setw(8) << predicted_text.str() << "  "
                << kernels::to_string(time.step->kind) << " " << time.step->detail << "\n";
    }
  };
  print_waiting(profile);
  print_steps("slowest steps:", [](const StepTime& a, const StepTime& b) { return a.measured_ms > b.measured_ms; });
  // Where a prediction is wrong, this list shows it first (steps without one count as 0).
  const auto excess = [](const StepTime& t) { return t.measured_ms - t.predicted_ms.value_or(0.0); };
  print_steps("most above plan:", [&](const StepTime& a, const StepTime& b) { return excess(a) > excess(b); });
}

nlohmann::ordered_json prediction_check_json(const evaluation::PredictionCheck& check) {
  nlohmann::ordered_json misses = nlohmann::ordered_json::array();
  for (const evaluation::StepTypeRatio& miss : check.misses()) misses.push_back({{"type", miss.type}, {"ratio", miss.ratio}});
  return {{"run_ratio", check.run_ratio}, {"prices_hold", check.prices_hold()}, {"host_moved", check.host_moved()},
          {"misses", misses}, {"verdict", check.verdict()}};
}

/// Every step in program order, for `--profile --json`, and with a plan whether its step
/// types hold their prices.
nlohmann::ordered_json profile_json(const evaluation::StepProfile& profile) {
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const evaluation::StepTime& time : profile.steps)
    steps.push_back({{"name", time.step->name},
                     {"kind", kernels::to_string(time.step->kind)},
                     {"detail", time.step->detail},
                     {"measured_ms", time.measured_ms},
                     {"predicted_ms", time.predicted_ms ? nlohmann::json(*time.predicted_ms) : nlohmann::json()},
                     {"wait_ms", time.wait_ms ? nlohmann::json(*time.wait_ms) : nlohmann::json()}});
  const evaluation::ThreadWaiting waiting = profile.waiting();
  nlohmann::ordered_json out{{"run_ms", profile.run_ms},
                             {"wait_ms", waiting.wait_ms},
                             {"wait_recorded_ms", waiting.recorded_ms},
                             {"wait_unrecorded_steps", waiting.unrecorded_steps},
                             {"steps", steps}};
  if (profile.planned) out["prediction_check"] = prediction_check_json(evaluation::check_predictions(profile.types()));
  return out;
}

/// The two yardsticks a run is read against.
struct Yardsticks {
  evaluation::ComputeLimit compute;
  evaluation::Roofline roofline;
};

/// The compute limit and roofline of the model as scheduled, at the FMA peak and read
/// bandwidth measured on `threads`; the peak is the faster of `peak_before` (probed before
/// the timing) and a probe now.
Yardsticks yardsticks(const ScheduledModel& scheduled, int threads, const timing::PeakFlops& peak_before) {
  const timing::PeakFlops peak =
      timing::faster_peak(peak_before, timing::measure_peak_flops(timing::peak_flops_policy(threads)));
  const timing::MemoryBandwidth bandwidth = timing::measure_memory_bandwidth(timing::memory_bandwidth_policy(threads));
  const graph::Graph& graph = scheduled.model.graph;
  const planning::Plan* plan = scheduled.plan ? &*scheduled.plan : nullptr;
  return {evaluation::compute_limit(graph, plan, peak),
          evaluation::roofline(graph, plan, peak, bandwidth)};
}

nlohmann::ordered_json compute_limit_json(const evaluation::ComputeLimit& limit, double run_ms) {
  return {{"direct_gflop", limit.direct_gflop}, {"executed_gflop", limit.executed_gflop},
          {"winograd_convs", limit.winograd_convs}, {"peak_gflops", limit.peak_gflops},
          {"limit_ms", limit.limit_ms()}, {"fraction", limit.fraction_of(run_ms)}};
}

/// The roofline, per operator, and the `losses` steps that lose most time to their floors:
/// where kernel work pays most.
nlohmann::ordered_json roofline_json(const graph::Graph& graph, const evaluation::Roofline& roofline,
                                     const evaluation::StepProfile& profile, double run_ms, size_t losses) {
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (const evaluation::StepTypeFloor& type : roofline.types(profile.node_ms()))
    types.push_back({{"type", type.type}, {"steps", type.steps}, {"floor_ms", type.floor_ms},
                     {"memory_bound_ms", type.memory_bound_ms}, {"measured_ms", type.measured_ms},
                     {"fraction", type.fraction()}});
  nlohmann::ordered_json largest = nlohmann::ordered_json::array();
  for (const evaluation::StepLoss& loss : roofline.largest_losses(profile.node_ms(), losses))
    largest.push_back({{"node", graph.node(loss.floor.node).name}, {"type", loss.floor.type},
                      {"floor_ms", loss.floor.floor_ms()}, {"measured_ms", loss.measured_ms},
                      {"fraction", loss.fraction()}});
  return {{"floor_ms", roofline.floor_ms()}, {"memory_bound_ms", roofline.memory_bound_ms()},
          {"bandwidth_gbps", roofline.bandwidth_gbps}, {"fraction", roofline.fraction_of(run_ms)},
          {"types", types}, {"largest_losses", largest}};
}

/// Both yardsticks and the median run's fraction of each, then the roofline per operator
/// beside the operator's steps in the profiled run.
void print_yardsticks(const Yardsticks& yardsticks, const evaluation::StepProfile& profile, double run_ms) {
  const evaluation::Roofline& roofline = yardsticks.roofline;
  std::cout << "compute:    " << yardsticks.compute.summary() << "; the median run is at " << std::fixed
            << std::setprecision(0) << 100 * yardsticks.compute.fraction_of(run_ms) << "% of it\n"
            << "roofline:   " << roofline.summary() << "; the median run is at " << std::setprecision(0)
            << 100 * roofline.fraction_of(run_ms) << "% of it\n"
            << "  operator                  steps     floor ms  memory-bound ms  measured ms  of floor\n";
  bool beat_floor = false;
  for (const evaluation::StepTypeFloor& type : roofline.types(profile.node_ms())) {
    std::cout << "  " << std::left << std::setw(24) << type.type << std::right << std::setw(7) << type.steps
              << std::setprecision(3) << std::setw(13) << type.floor_ms << std::setw(17) << type.memory_bound_ms
              << std::setw(13) << type.measured_ms << std::setprecision(0) << std::setw(9) << 100 * type.fraction()
              << "%\n";
    beat_floor = beat_floor || type.fraction() > 1;
  }
  if (beat_floor)
    std::cout << "  (above 100%: those steps found operands in cache that the roofline prices at the "
                 "memory's read bandwidth)\n";
}

void print_largest_losses(const graph::Graph& graph, const evaluation::Roofline& roofline,
                          const evaluation::StepProfile& profile, size_t losses) {
  std::cout << "  most time above its floor:            measured ms  floor ms  of floor\n";
  for (const evaluation::StepLoss& loss : roofline.largest_losses(profile.node_ms(), losses))
    std::cout << "  " << std::left << std::setw(36) << graph.node(loss.floor.node).name.substr(0, 35) << std::right
              << std::fixed << std::setprecision(3) << std::setw(12) << loss.measured_ms << std::setw(10)
              << loss.floor.floor_ms() << std::setprecision(0) << std::setw(9) << 100 * loss.fraction() << "%  "
              << loss.floor.type << (loss.floor.memory_bound() ? " (memory-bound)" : "") << "\n";
}

void bench(const BenchFlags& flags) {
  const ScheduledModel scheduled = load_scheduled_model(flags.scheduled);
  const graph::Graph& graph = scheduled.model.graph;
  const int threads = pipeline::resolve_threads(flags.threads);
  const timing::ThreadScope scope(threads);
  pipeline::warn_if_passive_openmp_wait();
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(graph, scheduled.schedule);
  std::vector<kernels::Fork> forks;
  std::optional<costs::SideBySideRounds> against_team;
  if (flags.side_by_side) {
    forks = costs::plan_side_by_side(network, graph, threads, costs::kSideBySideProfiledRuns);
    kernels::CompiledNetwork forked = kernels::CompiledNetwork::compile(graph, scheduled.schedule, forks);
    timing::TimingPolicy per_round = costs::network_policy(threads, flags.min_seconds * 1e3 / kSideBySideRounds);
    against_team = costs::time_side_by_side(network, forked, graph, per_round, kSideBySideRounds);
    network = std::move(forked);
  }
  std::optional<timing::PeakFlops> peak_before;
  if (flags.profile) peak_before = timing::measure_peak_flops(timing::peak_flops_policy(threads));
  const RoundedTiming timing = time_in_rounds(network, graph, costs::network_policy(threads, flags.min_seconds * 1e3));
  const timing::Summary& ms = timing.middle.ms;
  const kernels::CompileSummary& compiled = network.summary();
  if (flags.json) {
    nlohmann::ordered_json out{{"model", graph.name()},
                               {"plan", flags.scheduled.plan.empty() ? nlohmann::json(nullptr)
                                                                     : nlohmann::json(flags.scheduled.plan)},
                               {"threads", threads},
                               {"median_ms", ms.median},
                               {"q1_ms", ms.q1},
                               {"q3_ms", ms.q3},
                               {"min_ms", ms.min},
                               {"max_ms", ms.max},
                               {"runs", ms.count},
                               {"rounds", timing.rounds.kept.size()},
                               {"retimed_rounds", timing.rounds.retimed},
                               {"rounds_steady", timing.rounds.steady},
                               {"predicted_ms", scheduled.predicted_ms > 0 ? nlohmann::json(scheduled.predicted_ms)
                                                                           : nlohmann::json(nullptr)},
                               {"kernels", compiled.kernels},
                               {"transforms", compiled.transforms},
                               {"fallbacks", compiled.fallbacks},
                               {"forks", forks.size()},
                               {"forked_steps", forked_steps(forks)}};
    if (against_team)
      out["side_by_side"] = {{"forked_ms", against_team->forked_ms},
                             {"team_ms", against_team->team_ms},
                             {"ratio_median", against_team->ratio_median()},
                             {"forks", fork_json(forks)}};
    // What the peers compute on the same input (bench/compare_peers.py compares them).
    if (graph.inputs().size() == 1) out["output_head"] = evaluation::peer_output_head(network, graph);
    if (flags.profile) {
      const evaluation::StepProfile profile = profile_steps(network, scheduled, kProfiledRuns);
      out["profile"] = profile_json(profile);
      const Yardsticks measured = yardsticks(scheduled, threads, *peak_before);
      out["compute_limit"] = compute_limit_json(measured.compute, ms.median);
      out["roofline"] = roofline_json(graph, measured.roofline, profile, ms.median, flags.losses);
    }
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << "model:      " << graph.name() << " (" << scheduled.model.source << ")\n"
            << "schedule:   " << scheduled.schedule_source << "\n";
  print_compile(compiled);
  if (against_team) {
    const auto [low, high] = against_team->ratio_range();
    std::cout << "side by side: " << forks.size() << " forks run " << forked_steps(forks) << " of "
              << network.steps().size() << " steps in lanes of one thread each; " << kSideBySideRounds
              << " alternating rounds: " << std::fixed << std::setprecision(3) << against_team->forked_median()
              << " ms against " << against_team->team_median() << " ms without, ratio " << std::setprecision(3)
              << against_team->ratio_median() << " (" << std::setprecision(2) << low << "-" << high << ")\n";
  }
  std::cout << std::fixed << std::setprecision(3) << "latency:    median " << ms.median << " ms (quartiles " << ms.q1
            << " - " << ms.q3 << ", min " << ms.min << ", " << ms.count << " runs, " << threads << " threads)\n"
            << "rounds:     the middle of " << timing.rounds.kept.size() << " rounds "
            << (timing.rounds.steady ? "within " : "still apart by ") << std::setprecision(2) << timing.rounds.swing
            << "x (tolerance " << timing::kRoundSwingTolerance << "x); " << timing.rounds.retimed << " re-timed\n"
            << std::setprecision(3);
  if (scheduled.predicted_ms > 0)
    std::cout << "predicted:  " << scheduled.predicted_ms << " ms (measured / predicted " << std::setprecision(2)
              << ms.median / scheduled.predicted_ms << ")\n";
  if (flags.profile) {
    const evaluation::StepProfile profile = profile_steps(network, scheduled, kProfiledRuns);
    print_profile(profile, kProfiledRuns);
    const Yardsticks measured = yardsticks(scheduled, threads, *peak_before);
    print_yardsticks(measured, profile, ms.median);
    print_largest_losses(graph, measured.roofline, profile, flags.losses);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* command = app.add_subcommand("bench", "Compile a model for its plan and time whole inferences");
  add_scheduled_model_arguments(*command, flags->scheduled);
  add_threads_option(*command, flags->threads, "OpenMP threads");
  command->add_option("--min-seconds", flags->min_seconds, "least total time of the timed runs (split among the rounds)")
      ->check(positive_number())
      ->capture_default_str();
  CLI::Option* profile = command->add_flag("--profile", flags->profile, "also show where the time goes, per step");
  command->add_option("--losses", flags->losses, "with --profile, the steps listed that lose most time to their floors")
      ->check(positive_number())
      ->needs(profile)
      ->capture_default_str();
  command->add_flag("--side-by-side", flags->side_by_side,
                    "run independent steps side by side, one thread each, where the network's own step times "
                    "(with all threads and with one) say it pays; a profile still times them one by one");
  command->add_flag("--json", flags->json, "print one JSON object (for scripts)");
  command->callback([flags] { bench(*flags); });
}

}  // namespace layoutopt::apps
