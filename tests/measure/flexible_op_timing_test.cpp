// What the flexible-op timer runs, not how fast: the concat it times copies only the inputs a
// compiled network cannot place in their slice of the output.

#include "layoutopt/measure/flexible_op_timing.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "layoutopt/measure/cost_policy.h"

using namespace layoutopt;

namespace {

graph::Graph three_branch_concat(int64_t batch) {
  graph::Graph g("concat");
  const graph::ValueId x = g.add_input("x", {{batch, 16, 6, 6}});
  const graph::ValueId a = g.add_node("a", graph::Relu{}, {x});
  const graph::ValueId b = g.add_node("b", graph::Relu{}, {x});
  g.add_output(g.add_node("join", graph::Concat{}, {x, a, b}));
  return g;
}

int64_t timed_copies(int64_t batch, int64_t block) {
  const graph::Graph g = three_branch_concat(batch);
  const measure::FlexibleOpTimer timer(measure::cost_policy(1, 1.0));
  const measure::FlexibleOpCost cost = timer.cost(g, *g.find_node("join"), block);
  CHECK(cost.ms >= 0.0);
  return nlohmann::json::parse(cost.schedule).at("schedule").at("copies").get<int64_t>();
}

}  // namespace

TEST_CASE("a batch-1 concat is timed without copies, a batch-2 one with all of them") {
  CHECK(timed_copies(1, 16) == 0);
  CHECK(timed_copies(1, 1) == 0);
  CHECK(timed_copies(2, 16) == 3);
}
