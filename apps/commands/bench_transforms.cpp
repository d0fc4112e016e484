// `layoutopt bench-transforms MODEL -o transforms.json [--records tune.jsonl] [--threads N]
//   [--quiet] [--verify N]`: times every layout transform the graph solver may need for a
// model (pipeline/extend_transform_table.h) and stores them in a JSON table keyed by CPU,
// thread count, shape and layouts. An existing table is reused: only missing entries are
// timed, nothing in it is dropped. Under mpirun the passes are spread over the ranks.
// --verify re-times a sample of the table's entries on this process and prints the ratio to
// the stored time.

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/pipeline/extend_transform_table.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/pipeline/threads.h"
#ifdef LAYOUTOPT_WITH_MPI
#include "cluster_options.h"
#include "layoutopt/mpi/mpi_tune.h"
#endif

namespace layoutopt::apps {

namespace {

struct BenchTransformsFlags {
  ModelArgument model;
  std::string output;
  std::string records;
  int threads = 0;
  bool quiet = false;
  double min_repeat_ms = 20;
  size_t verify = 0;
#ifdef LAYOUTOPT_WITH_MPI
  mpi::ClusterOptions cluster;  ///< used when started by mpirun
#endif
};

// Entries this short are mostly OpenMP fork/join and clock overhead, whose jitter alone
// exceeds 10%; they add microseconds to a network, so the check also reports the rest.
constexpr double kShortEntryMs = 0.005;

bool within_10_percent(double ratio) { return ratio >= 0.9 && ratio <= 1.1; }

// Re-times `count` entries spread evenly over `keys` (with the same passes as the table)
// and prints measured / stored.
void verify_sample(const costs::TransformTable& table, const std::vector<costs::TransformKey>& keys, size_t count,
                   const timing::TimingPolicy& policy, const std::string& target, timing::ProgressReporter& progress) {
  std::vector<costs::TransformKey> sample;
  std::vector<const costs::TransformEntry*> stored;
  for (size_t i = 0; i < count && i < keys.size(); ++i) {
    const costs::TransformKey& key = keys[i * keys.size() / std::min(count, keys.size())];
    if (const costs::TransformEntry* entry = table.find(target, policy.threads, key)) {
      sample.push_back(key);
      stored.push_back(entry);
    }
  }
  if (sample.empty()) return;
  const std::vector<costs::TransformEntry> again = costs::time_transforms(sample, policy, target, &progress);
  progress.finish();
  std::cout << "verify: re-timed " << sample.size() << " entries (new / stored median)\n";
  std::vector<double> ratios;
  size_t longer = 0, longer_within = 0;
  for (size_t i = 0; i < sample.size(); ++i) {
    ratios.push_back(again[i].median_ms / stored[i]->median_ms);
    if (stored[i]->median_ms >= kShortEntryMs) {
      ++longer;
      longer_within += within_10_percent(ratios.back());
    }
    std::cout << "  " << std::left << std::setw(44) << costs::describe(sample[i]) << std::right << std::fixed
              << std::setprecision(4) << std::setw(10) << stored[i]->median_ms << " ms " << std::setw(10)
              << again[i].median_ms << " ms  ratio " << std::setprecision(3) << ratios.back() << "\n";
  }
  const auto within = std::count_if(ratios.begin(), ratios.end(), within_10_percent);
  std::sort(ratios.begin(), ratios.end());
  std::cout << "verify: median ratio " << std::setprecision(3) << ratios[ratios.size() / 2] << ", " << within << "/"
            << ratios.size() << " within 10% (" << longer_within << "/" << longer << " of the entries of "
            << kShortEntryMs * 1e3 << " us or more)\n";
}

// Under mpirun (when built with MPI) every rank times passes; only rank 0 has a report.
std::optional<pipeline::TransformTableReport> extend_table(const graph::Graph& graph,
                                                           const pipeline::TransformTableRequest& request,
                                                           [[maybe_unused]] const BenchTransformsFlags& flags) {
#ifdef LAYOUTOPT_WITH_MPI
  if (mpi::launched_by_mpirun()) return mpi::extend_transform_table_mpi(graph, request, flags.cluster);
#endif
  return pipeline::extend_transform_table(graph, request);
}

void run_bench_transforms(const BenchTransformsFlags& flags) {
  const LoadedModel model = load_and_warn(flags.model.spec, flags.model.options);
  const pipeline::TransformTableRequest request{flags.output, flags.records, pipeline::resolve_threads(flags.threads),
                                                flags.min_repeat_ms, flags.quiet};
  const std::optional<pipeline::TransformTableReport> report = extend_table(model.graph, request, flags);
  if (!report) return;  // an MPI rank other than 0: rank 0 reports
  std::cout << report->keys.size() << " transforms: " << report->filled.measured << " timed now, "
            << report->filled.reused << " reused; table " << flags.output << " holds " << report->table_entries
            << " entries\n";
  if (flags.verify == 0) return;
  timing::ProgressReporter progress = pipeline::progress_reporter(flags.quiet);
  verify_sample(costs::TransformTable::load(flags.output), report->keys, flags.verify,
                pipeline::transform_policy(request), report->target, progress);
}

}  // namespace

void add_bench_transforms_command(CLI::App& app) {
  auto flags = std::make_shared<BenchTransformsFlags>();
  CLI::App* command = app.add_subcommand(
      "bench-transforms", "Time the layout transforms a model's layout choices may need; reuse and extend a JSON table");
  add_model_argument(*command, flags->model);
  command->add_option("-o,--output", flags->output, "transform table (JSON); an existing one is extended, never dropped")
      ->required();
  command->add_option("--records", flags->records, "tuning log: use the blocks of the tuned candidates");
  command->add_option("--threads", flags->threads, "OpenMP threads per transform (default: OpenMP's default)")
      ->check(positive_number());
  command->add_flag("--quiet", flags->quiet, "no progress output");
  command->add_option("--min-repeat-ms", flags->min_repeat_ms, "least timed milliseconds per transform")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--verify", flags->verify, "re-time N entries and print new / stored ratios")
      ->check(positive_number());
#ifdef LAYOUTOPT_WITH_MPI
  add_cluster_options(*command, flags->cluster);
#endif
  command->callback([flags] { run_bench_transforms(*flags); });
}

}  // namespace layoutopt::apps
