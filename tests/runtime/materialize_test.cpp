// materialize(): a concat whose inputs were all written in place is marked as having
// nothing to do (the network skips it instead of forking a team for it); one with an input
// elsewhere still copies that input, and only that one.

#include <doctest/doctest.h>

#include <atomic>

#include "layoutopt/runtime/materialize.h"
#include "one_stage_networks.h"

namespace layoutopt::testing {

namespace {

using namespace layoutopt::runtime;

std::atomic<int> copies_run{0};

void count_copy(const float*, const float*, const float*, const float*, float*, const float*, int64_t, int64_t) {
  ++copies_run;
}

/// concat(a, b) -> out of 2 x 64 floats; `b_in_place` puts b's slot in out's storage at its
/// slice, as the program builder places concat inputs (a always is).
NetworkSpec concat_network(bool b_in_place) {
  NetworkSpec n;
  n.name = "concat";
  n.storage_offsets = {0, 128};
  n.arena_floats = 192;
  n.slots = {{0, 64, 0}, {b_in_place ? 0 : 1, 64, b_in_place ? 64 : 0}, {0, 128, 0}};
  n.steps.push_back({"cat", "c x2", ConcatStep{{one_stage_kernel("copy_a", 1), one_stage_kernel("copy_b", 1)}, {0, 1}, 2, {0, 64}}});
  n.inputs = {{"a", {1, 64}, 0}, {"b", {1, 64}, 1}};
  n.outputs = {{"out", {1, 128}, 2}};
  return n;
}

std::vector<RunnableStep> materialized(const NetworkSpec& spec) {
  return materialize(spec, [](const std::string&) { return &count_copy; }, nullptr, std::make_shared<KernelScratch>());
}

SlotAddresses addresses(const NetworkSpec& spec, std::vector<float>& arena) {
  SlotAddresses a;
  for (const SlotSpec& slot : spec.slots)
    a.push_back(arena.data() + spec.storage_offsets[static_cast<size_t>(slot.storage)] + slot.offset);
  return a;
}

}  // namespace

TEST_CASE("a concat with every input in place has nothing to do") {
  const NetworkSpec spec = concat_network(true);
  const std::vector<RunnableStep> steps = materialized(spec);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].does_nothing);
  std::vector<float> arena(static_cast<size_t>(spec.arena_floats));
  copies_run = 0;
  steps[0].run(addresses(spec, arena), Team::own);
  CHECK(copies_run == 0);
}

TEST_CASE("a concat with an input elsewhere copies that input alone") {
  const NetworkSpec spec = concat_network(false);
  const std::vector<RunnableStep> steps = materialized(spec);
  REQUIRE(steps.size() == 1);
  CHECK_FALSE(steps[0].does_nothing);
  std::vector<float> arena(static_cast<size_t>(spec.arena_floats));
  copies_run = 0;
  steps[0].run(addresses(spec, arena), Team::own);
  CHECK(copies_run == 1);  // one work item of copy_b's stage, on one thread
}

}  // namespace layoutopt::testing
