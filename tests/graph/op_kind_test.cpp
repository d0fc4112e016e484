#include "layoutopt/graph/op_kind.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "layoutopt/graph/ops.h"
#include "layoutopt/graph/zoo/zoo.h"

using namespace layoutopt::graph;

TEST_CASE("every op kind has one name, and the name parses back to it") {
  std::set<std::string> names;
  for (int k = 0; k <= static_cast<int>(OpKind::silu); ++k) {
    const auto kind = static_cast<OpKind>(k);
    const std::string name(to_string(kind));
    CHECK(names.insert(name).second);
    CHECK(parse_op_kind(name) == kind);
  }
  CHECK_FALSE(parse_op_kind("conv3d").has_value());
  CHECK_FALSE(parse_op_kind("").has_value());
}

TEST_CASE("a node's op kind spells its op name, pooling split by its kind") {
  CHECK(op_kind(Pool2d{.kind = PoolKind::max}) == OpKind::max_pool2d);
  CHECK(op_kind(Pool2d{.kind = PoolKind::avg}) == OpKind::avg_pool2d);
  for (const std::string model : {"resnet-18", "squeezenet-1.1", "mobilenet-v2"}) {
    const Graph g = zoo::build(model, {.batch = 1, .seed = 1, .image_size = 64});
    for (const Node& node : g.nodes()) CHECK(to_string(op_kind(node.op)) == op_name(node.op));
  }
}
