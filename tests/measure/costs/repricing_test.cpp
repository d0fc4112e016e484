// A measured source built with a Repricing prices as the source's mutators did before the
// repricing became a value (figures read from the old price_stale_task /
// price_transforms_in_network on the same records and table): a stale task's configs not
// timed afresh cost its drift times their timings, the transforms timed in a network cost
// that time, and every other transform its table time times the median in-network / table
// ratio. Repricing a source changes nothing else, and a rebuilt source prices alike.

#include "layoutopt/costs/repricing.h"

#include <doctest/doctest.h>

#include <variant>
#include <vector>

#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/layout/transform.h"
#include "plan_fixtures.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

namespace {

double transform_ms(const costs::MeasuredCostSource& source, const costs::TransformKey& key) {
  return source.transform_ms(key.shape, key.src, key.dst);
}

int64_t config_of(const planning::NodeCandidate& candidate) {
  return std::get<planning::TunedKernel>(candidate.kernel).config_index;
}

/// The tiny graph's records (every config timed once, 10 us apart) and its 1 us table.
struct Tiny {
  graph::Graph g = tiny_graph();
  std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(g);
  ScratchFile records{"records.jsonl"};
  std::vector<tuning::MeasureRecord> log = written_log();
  costs::TransformTable table = synthetic_table(g);
  MeasuredCosts measured{g, log, table, records.path()};

  /// The table's transforms that move data: a block that spans a tensor's channels (the
  /// classifier's 10 in blocks of 10) is a reinterpretation, which every source prices at 0.
  [[nodiscard]] std::vector<costs::TransformKey> copying_transforms() const {
    std::vector<costs::TransformKey> keys;
    for (const costs::TransformEntry& entry : table.entries())
      if (!layout::same_memory_order(entry.key.shape, entry.key.src, entry.key.dst)) keys.push_back(entry.key);
    return keys;
  }

  [[nodiscard]] size_t dense_task() const {
    for (size_t t = 0; t < tasks.size(); ++t)
      if (tasks[t].op.family() == kernels::OpFamily::dense) return t;
    FAIL("no dense task");
    return 0;
  }

 private:
  std::vector<tuning::MeasureRecord> written_log() {
    write_records(records.path(), tasks);
    return tuning::load_record_log(records.path()).records;
  }
};

}  // namespace

TEST_CASE("a source built with a repricing prices stale tasks and in-network transforms as the mutators did") {
  const Tiny tiny;
  const costs::MeasuredCostSource& plain = tiny.measured.source;
  const graph::NodeId dense = tiny.tasks[tiny.dense_task()].nodes.front();
  const std::vector<planning::NodeCandidate> before = plain.candidates(tiny.g, dense);
  REQUIRE(before.size() == 6);
  const int64_t fresh = config_of(before.front());
  const std::vector<costs::TransformKey> copies = tiny.copying_transforms();
  REQUIRE(copies.size() >= 3);
  const costs::TransformKey a = copies[0], b = copies[1], untimed = copies[2];

  const costs::Repricing repricing{.stale_tasks = {{tiny.dense_task(), {.drift = 1.5, .fresh = {fresh}}}},
                                   .in_network_transforms = {{a, 0.004}, {b, 0.002}}};
  const costs::MeasuredCostSource repriced = plain.repriced(repricing);

  // Config 4 (the first candidate, 0.05 ms) was timed afresh; configs 0-3 and 5 (0.01-0.06 ms)
  // cost 1.5x, as price_stale_task(dense, 1.5, {4}) then read_records priced them.
  const std::vector<planning::NodeCandidate> after = repriced.candidates(tiny.g, dense);
  REQUIRE(after.size() == before.size());
  CHECK(fresh == 4);
  CHECK(after[0].ms == doctest::Approx(0.05));
  for (size_t i = 0; i < before.size(); ++i) {
    CAPTURE(config_of(before[i]));
    CHECK(config_of(after[i]) == config_of(before[i]));
    CHECK(after[i].ms == doctest::Approx(before[i].ms * (i == 0 ? 1.0 : 1.5)));
  }
  CHECK(after[1].ms == doctest::Approx(0.015));
  // In-network times replace the table's 1 us; the rest cost 1 us x median(4, 2) = 3 us.
  CHECK(transform_ms(plain, a) == doctest::Approx(0.001));
  CHECK(transform_ms(repriced, a) == doctest::Approx(0.004));
  CHECK(transform_ms(repriced, b) == doctest::Approx(0.002));
  CHECK(transform_ms(repriced, untimed) == doctest::Approx(0.003));
  CHECK(repriced.untimed_transform_factor() == doctest::Approx(3.0));
  CHECK(plain.untimed_transform_factor() == 1.0);

  // Other nodes keep their prices; a source rebuilt over the same records prices alike.
  const graph::NodeId conv2 = *tiny.g.find_node("conv2");
  const std::vector<planning::NodeCandidate> conv_before = plain.candidates(tiny.g, conv2);
  const std::vector<planning::NodeCandidate> conv_after = repriced.candidates(tiny.g, conv2);
  REQUIRE(conv_after.size() == conv_before.size());
  for (size_t i = 0; i < conv_before.size(); ++i) CHECK(conv_after[i].ms == conv_before[i].ms);
  const costs::MeasuredCostSource rebuilt = plain.rebuilt(tiny.log, repricing);
  for (size_t i = 0; i < after.size(); ++i) CHECK(rebuilt.candidates(tiny.g, dense)[i].ms == after[i].ms);
  CHECK(transform_ms(rebuilt, untimed) == transform_ms(repriced, untimed));
}

TEST_CASE("a repricing naming a task the graph does not have is refused") {
  const Tiny tiny;
  CHECK_THROWS_AS((void)tiny.measured.source.repriced({.stale_tasks = {{tiny.tasks.size(), {}}}}), std::out_of_range);
}
