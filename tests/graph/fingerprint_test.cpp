// The structure fingerprint changes with what a graph computes (wiring, shapes, operators and
// their attributes) and with nothing else (names, weights, a JSON round trip).

#include "layoutopt/graph/fingerprint.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "layoutopt/graph/json_io.h"
#include "layoutopt/graph/zoo/zoo.h"

using namespace layoutopt;

namespace {

struct TwoBranchOptions {
  std::string prefix;        ///< prepended to every name
  bool add_reads_input = false;  ///< the add reads x instead of the first relu
  int64_t channels = 8;
  uint64_t seed = 1;
};

/// x -> conv -> relu a -> relu b -> add(a or x, b).
graph::Graph two_branch(const TwoBranchOptions& o) {
  graph::Graph g(o.prefix + "g");
  const int64_t c = o.channels;
  const auto x = g.add_input(o.prefix + "x", {{1, c, 4, 4}});
  const auto w = g.add_parameter(o.prefix + "w", {c, c, 1, 1}, graph::WeightData::seeded({o.seed}, c * c));
  const auto conv = g.add_node(o.prefix + "conv", graph::Conv2d{}, {x, w});
  const auto a = g.add_node(o.prefix + "a", graph::Relu{}, {conv});
  const auto b = g.add_node(o.prefix + "b", graph::Relu{}, {a});
  g.add_output(g.add_node(o.prefix + "sum", graph::Add{}, {o.add_reads_input ? x : a, b}));
  return g;
}

}  // namespace

TEST_CASE("the fingerprint is 16 hex digits and the same for the same structure") {
  const std::string fingerprint = graph::structure_fingerprint(two_branch({}));
  CHECK(fingerprint.size() == 16);
  CHECK(fingerprint.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(graph::structure_fingerprint(two_branch({})) == fingerprint);
  // Names and weights are not structure; a JSON round trip keeps it.
  CHECK(graph::structure_fingerprint(two_branch({.prefix = "other_"})) == fingerprint);
  CHECK(graph::structure_fingerprint(two_branch({.seed = 7})) == fingerprint);
  CHECK(graph::structure_fingerprint(graph::graph_from_json(graph::to_json(two_branch({})))) == fingerprint);
}

TEST_CASE("the fingerprint changes with wiring, shapes and operator attributes") {
  const std::string base = graph::structure_fingerprint(two_branch({}));
  CHECK(graph::structure_fingerprint(two_branch({.add_reads_input = true})) != base);
  CHECK(graph::structure_fingerprint(two_branch({.channels = 16})) != base);
  graph::Graph strided = two_branch({});
  std::get<graph::Conv2d>(strided.node(0).op).dilation = {2, 2};
  CHECK(graph::structure_fingerprint(strided) != base);
  CHECK(graph::structure_fingerprint(graph::zoo::build("resnet-18")) !=
        graph::structure_fingerprint(graph::zoo::build("resnet-34")));
}
