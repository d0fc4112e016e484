// `layoutopt bench-transforms MODEL -o transforms.json [--records tune.jsonl] [--threads N]
//   [--quiet] [--verify N]`: times every layout transform the graph solver may need for a
// model (see transform_enumeration.h) and stores them in a JSON table keyed by CPU, thread
// count, shape and layouts. An existing table is reused: only missing entries are timed,
// nothing in it is dropped. --verify re-times a sample of the table's entries and prints
// the ratio to the stored time.

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/tuning/tuning_session.h"

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
};

// Blocks of the tuned candidates of each task, when a record log is given.
costs::TunedBlocks tuned_blocks(const graph::Graph& graph, const std::string& records, const std::string& target,
                                 timing::ProgressReporter& progress) {
  if (records.empty()) return {};
  const tuning::LoadedLog log = tuning::load_record_log(records);
  if (!log.issues.empty()) progress.note("warning: " + tuning::describe_issues(records, log.issues), true);
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  costs::TunedBlocks blocks = costs::tuned_blocks(tasks, log.records, target);
  progress.note("layouts of " + std::to_string(blocks.size()) + "/" + std::to_string(tasks.size()) +
                " tasks from tuned candidates in " + records + "; vector-friendly blocks for the rest");
  return blocks;
}

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

void run_bench_transforms(const BenchTransformsFlags& flags) {
  const LoadedModel model = load_and_warn(flags.model.spec, flags.model.options);
  const int threads = pipeline::resolve_threads(flags.threads);
  const std::string target = tuning::host_target(threads);
  const timing::TimingPolicy policy = timing::cost_policy(threads, flags.min_repeat_ms);
  timing::ProgressReporter progress = pipeline::progress_reporter(flags.quiet);
  costs::TransformTable table = pipeline::load_table_warning(flags.output, progress);
  const auto keys =
      costs::enumerate_transforms(model.graph, tuned_blocks(model.graph, flags.records, target, progress));
  progress.note(std::to_string(keys.size()) + " transforms for " + model.graph.name() + " on " + target + ", timed one at a time on " +
                std::to_string(threads) + " threads (concurrent timing would disturb the results)");
  const costs::FillResult filled = pipeline::fill_and_save_table(table, flags.output, keys, policy, target, progress);
  std::cout << keys.size() << " transforms: " << filled.measured << " timed now, " << filled.reused
            << " reused; table " << flags.output << " holds " << table.entries().size() << " entries\n";
  if (flags.verify > 0) verify_sample(table, keys, flags.verify, policy, target, progress);
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
  command->callback([flags] { run_bench_transforms(*flags); });
}

}  // namespace layoutopt::apps
