// Layout variants: which variants of a tuned conv are timed, and that they reach the layout
// candidates as configs whose output (store) or input (load) layout is the variant's block,
// without counting as trials.

#include <doctest/doctest.h>

#include "layoutopt/tuning/layout_variants.h"
#include "layoutopt/tuning/task_tuner.h"
#include "tuning_fixtures.h"

namespace {

using namespace layoutopt;
using layoutopt::testing::FakeMeasurer;

// Tunes `task` exhaustively with the fake measurer: its fastest config is tile_oc 16.
std::vector<tuning::MeasureRecord> exhaustive_records(const tuning::TuningTask& task, const std::string& target) {
  FakeMeasurer measurer;
  std::vector<tuning::MeasureRecord> records;
  for (int64_t index = 0; index < task.op.space().searched_size(); ++index)
    records.push_back(tuning::make_record(target, task, index, measurer.measure(task, index)));
  return records;
}

// The layouts the variants keep their tensor in (input or output), checking that each
// varies the fastest config (`knob` at `fastest`) and is not a search trial.
std::set<std::string> variant_layouts(const tuning::TuningTask& task, const std::vector<tuning::LayoutVariant>& variants,
                                      const std::string& knob, int64_t fastest, bool input) {
  std::set<std::string> layouts;
  for (const tuning::LayoutVariant& variant : variants) {
    CHECK(task.op.knobs(variant.index).at(knob) == fastest);
    CHECK_FALSE(task.op.space().searched(variant.index));
    const kernels::OpLayouts kept = task.op.layouts(variant.index);
    layouts.insert((input ? kept.input : kept.output).str());
  }
  return layouts;
}

}  // namespace

TEST_CASE("store variants: the fastest config stored in each block its output's readers compute in") {
  const std::string target = "llvm -test";
  const std::vector<tuning::TuningTask> tasks{layoutopt::testing::small_conv_task(32)};
  const std::vector<tuning::MeasureRecord> records = exhaustive_records(tasks[0], target);
  // Readers of 32 channels compute in 8, 16 (the fastest config's own block) and plain NCHW;
  // 24 channels is another tensor.
  const tuning::ChannelBlocks read{{32, {1, 8, 16}}, {24, {4}}};
  const auto variants = tuning::store_variants(tasks, tuning::summarize_history(tasks, records, target), read);
  REQUIRE(variants.size() == 2);
  // NCHW1c: plain NCHW's memory order.
  CHECK(variant_layouts(tasks[0], variants, "tile_oc", 16, false) == std::set<std::string>{"NCHW1c", "NCHW8c"});

  // Timed once, appended to the log, and not timed again on the next run.
  FakeMeasurer measurer;
  std::vector<tuning::MeasureRecord> log = records;
  const auto sink = [&](const tuning::MeasureRecord& record) { log.push_back(record); };
  const auto summary = [&](const std::vector<tuning::MeasureRecord>& of) { return tuning::summarize_history(tasks, of, target); };
  CHECK(tuning::measure_variants(tasks, tuning::store_variants(tasks, summary(records), read), measurer, target, sink)
            .size() == 2);
  CHECK(log.size() == records.size() + 2);
  CHECK(tuning::store_variants(tasks, summary(log), read).empty());
  // A variant timed fastest of all (a lucky timing) is not taken for the config to vary.
  tuning::MeasureResult lucky;
  lucky.costs_s = {1e-9};
  log.push_back(tuning::make_record(target, tasks[0], variants.front().index, lucky));
  CHECK(tuning::store_variants(tasks, tuning::summarize_history(tasks, log, target), read).empty());

  // Read back, a variant is a layout candidate (input 8c, output the stored block) and not a
  // search trial: the tuner's trial count is the searched space.
  tuning::TaskTuner tuner(tasks[0], {});
  for (const tuning::MeasureRecord& record : log) tuner.observe(*tasks[0].config_index(record.knob_map()), record.result);
  CHECK(tuner.trials() == tasks[0].op.space().searched_size());
  CHECK(tuner.exhausted());
  bool stored_in_8c_from_16c = false;
  for (const tuning::LayoutCandidate& candidate : tuner.candidates().all())
    if (candidate.layouts.output.str() == "NCHW8c" && tasks[0].op.knobs(candidate.index).at("tile_oc") == 16)
      stored_in_8c_from_16c = true;
  CHECK(stored_in_8c_from_16c);
}

TEST_CASE("store variants leave out 1x1 outputs; depthwise convs have them too") {
  const std::string target = "llvm -test";
  kernels::Conv2dDesc squeeze;  // squeeze-and-excitation fc: every blocking of [1,32,1,1] is one memory order
  squeeze.in_channels = 16, squeeze.out_channels = 32, squeeze.in_h = squeeze.in_w = 1;
  kernels::Conv2dDesc depthwise;
  depthwise.in_channels = depthwise.out_channels = depthwise.groups = 32;
  depthwise.in_h = depthwise.in_w = 8, depthwise.kernel_h = depthwise.kernel_w = 3;
  const std::vector<tuning::TuningTask> tasks{tuning::make_task(kernels::TunableOp::conv2d(squeeze)),
                                              tuning::make_task(kernels::TunableOp::conv2d(depthwise))};
  std::vector<tuning::MeasureRecord> records;
  tuning::MeasureResult timed;
  timed.costs_s = {1e-4};
  for (const tuning::TuningTask& task : tasks)
    records.push_back(tuning::make_record(target, task, task.op.default_index(), timed));
  REQUIRE(tuning::summarize_history(tasks, records, target).tasks[0].candidates.pair_count() == 1);
  const tuning::ChannelBlocks read{{32, {1, 4}}};
  const auto variants = tuning::store_variants(tasks, tuning::summarize_history(tasks, records, target), read);
  REQUIRE(variants.size() == 2);  // both of the depthwise conv's, none of the squeeze's
  for (const tuning::LayoutVariant& variant : variants) {
    CHECK(variant.task == 1);
    CHECK(tasks[1].op.knobs(variant.index).at("tile_c") == tasks[1].op.knobs(tasks[1].op.default_index()).at("tile_c"));
  }
}

TEST_CASE("load variants: the fastest config reading its input in each block a plan may hold it in") {
  const std::string target = "llvm -test";
  const std::vector<tuning::TuningTask> tasks{layoutopt::testing::small_conv_task(24)};
  const std::vector<tuning::MeasureRecord> records = exhaustive_records(tasks[0], target);
  // A plan may hold the 24-channel input in these blocks; the fastest config reduces over 8,
  // its own. Left out: plain NCHW (a reduction block of 8 or more), and 6, which a searched
  // config reads as computed at 1.07x the fastest time (12: 1.15x). 32 channels is another tensor.
  const tuning::ChannelBlocks held{{24, {1, 6, 8, 12, 24}}, {32, {4}}};
  const auto summary = [&](const std::vector<tuning::MeasureRecord>& of) { return tuning::summarize_history(tasks, of, target); };
  const auto variants = tuning::load_variants(tasks, summary(records), held);
  REQUIRE(variants.size() == 2);
  CHECK(variant_layouts(tasks[0], variants, "tile_ic", 8, true) == std::set<std::string>{"NCHW12c", "NCHW24c"});
  for (const tuning::LayoutVariant& variant : variants) CHECK(tasks[0].op.knobs(variant.index).at("store_oc") == 0);

  FakeMeasurer measurer;
  std::vector<tuning::MeasureRecord> log = records;
  const auto sink = [&](const tuning::MeasureRecord& record) { log.push_back(record); };
  CHECK(tuning::measure_variants(tasks, variants, measurer, target, sink).size() == 2);
  CHECK(tuning::load_variants(tasks, summary(log), held).empty());  // timed once
}
