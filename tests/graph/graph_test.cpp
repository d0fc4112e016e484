#include "layoutopt/graph/graph.h"

#include <doctest/doctest.h>

#include "graph_fixtures.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/topology.h"
#include "layoutopt/graph/validate.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;

TEST_CASE("builder infers shapes") {
  const Graph g = residual_block();
  CHECK(g.nodes().size() == 11);
  const Value& fc = g.value(*g.find_value("fc"));
  CHECK(fc.type.shape == Shape{1, 4});
  CHECK(g.value(*g.find_value("conv1")).type.shape == Shape{1, 8, 10, 10});
  validate(g);
}

TEST_CASE("statistics count parameters without batch-norm running statistics") {
  const Graph g = residual_block();
  // two 8x8x3x3 convs, two batch norms with scale+shift, fc 4x8 + 4
  CHECK(parameter_count(g) == 2 * 8 * 8 * 9 + 2 * 2 * 8 + 4 * 8 + 4);
  CHECK(mac_count(g) == 2 * (8 * 10 * 10) * (8 * 9) + 4 * 8);
  const auto tasks = extract_workloads(g);
  REQUIRE(tasks.size() == 2);  // both convs share one workload
  CHECK(tasks[0].nodes.size() == 2);
  CHECK(tasks[0].kind == "conv2d");
  CHECK(tasks[0].signature() == "conv2d x[1,8,10,10] w[8,8,3,3] s1x1 p1,1,1,1 d1x1 g1");
  CHECK(tasks[1].kind == "dense");
}

TEST_CASE("names are unique and lookups find them") {
  Graph g("names");
  const ValueId x = g.add_input("x", {{1, 4}});
  CHECK_THROWS_WITH_AS(g.add_input("x", {{1, 4}}), "duplicate value name 'x'", GraphError);
  g.add_node("r", Relu{}, {x});
  CHECK_THROWS_WITH_AS(g.add_node("r", Relu{}, {x}), "duplicate node name 'r'", GraphError);
  CHECK(g.unique_name("r") == "r_2");
  CHECK(g.find_node("r") == 0);
  CHECK_FALSE(g.find_value("nope").has_value());
  CHECK_THROWS_WITH_AS(g.add_node("bad", Relu{}, {42}), doctest::Contains("refers to unknown value #42"), GraphError);
}

TEST_CASE("parameters must hold as many values as their shape") {
  Graph g;
  CHECK_THROWS_WITH_AS(g.add_parameter("w", {2, 3}, WeightData::from_values({1, 2, 3})),
                       "parameter 'w' of shape [2, 3] needs 6 values, found 3", GraphError);
}

TEST_CASE("topological order puts producers first, even for nodes added out of order") {
  Graph g("reordered");
  const ValueId x = g.add_input("x", {{1, 4}});
  // `b` reads `a`'s output, but is listed first.
  const ValueId a_out = g.add_node_typed("a", Relu{}, {x}, {{1, 4}});
  const ValueId b_out = g.add_node_typed("b", Sigmoid{}, {a_out}, {{1, 4}});
  g.add_output(b_out);
  g.node(0).inputs = {b_out};  // a now reads b: a cycle
  CHECK_THROWS_WITH_AS(topological_order(g), doctest::Contains("has a cycle through node"), GraphError);
  g.node(0).inputs = {x};
  CHECK(topological_order(g) == std::vector<NodeId>{0, 1});
}

TEST_CASE("validation rejects dangling inputs, missing outputs and stale shapes") {
  Graph g("broken");
  const ValueId x = g.add_input("x", {{1, 4}});
  const ValueId y = g.add_node("r", Relu{}, {x});
  CHECK_THROWS_WITH_AS(validate(g), "graph 'broken' has no outputs", GraphError);
  g.add_output(y);
  validate(g);
  g.value(y).type.shape = {1, 5};
  CHECK_THROWS_WITH_AS(validate(g), doctest::Contains("is recorded as [1, 5] but its inputs give [1, 4]"), GraphError);
  g.value(y).type.shape = {1, 4};
  const ValueId orphan = g.add_node_typed("orphan_reader", Relu{}, {x}, {{1, 4}});
  g.node(1).inputs = {y};
  g.value(y).producer = kNoProducer;  // now nobody produces y
  (void)orphan;
  CHECK_THROWS_WITH_AS(validate(g), doctest::Contains("is dangling"), GraphError);
}

TEST_CASE("connected components count independent subgraphs") {
  Graph g("two");
  const ValueId a = g.add_input("a", {{1, 4}});
  const ValueId b = g.add_input("b", {{1, 4}});
  const ValueId a1 = g.add_node("a1", Relu{}, {a});
  g.add_node("a2", Relu{}, {a1});
  g.add_node("b1", Relu{}, {b});
  const Components components = connected_components(g);
  CHECK(components.count == 2);
  CHECK(components.of_node[0] == components.of_node[1]);
  CHECK(components.of_node[0] != components.of_node[2]);
}

TEST_CASE("remove_nodes drops unused values and renumbers consistently") {
  Graph g = residual_block();
  std::vector<bool> removed(g.nodes().size(), false);
  const NodeId drop = *g.find_node("drop");
  g.replace_uses(g.node(drop).output, g.node(drop).inputs[0]);
  removed[static_cast<size_t>(drop)] = true;
  g.remove_nodes(removed);
  CHECK_FALSE(g.find_node("drop").has_value());
  CHECK_FALSE(g.find_value("drop").has_value());
  for (size_t n = 0; n < g.nodes().size(); ++n) CHECK(g.value(g.nodes()[n].output).producer == static_cast<NodeId>(n));
  validate(g);
}
