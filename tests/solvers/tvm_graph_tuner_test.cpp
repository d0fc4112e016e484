// TVM's graph-tuner unit tests (tests/python/unittest/test_graph_tuner_core.py), rebuilt as
// cost problems: the same workloads, candidate costs and inferred layout-transform costs,
// and the same expected picks for DP and PBQP.
//
// TVM infers a transform's cost from one measured record: 1.91224744e-05 for a
// (1, 64, 16, 16, 8) tensor, i.e. a fixed time per element, times the elements moved.

#include <doctest/doctest.h>

#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

namespace layoutopt::solvers {

namespace {

constexpr double kPerElement = 1.91224744e-05 / (1.0 * 64 * 16 * 16 * 8);

// Transform cost of a tensor of `elements` when the block sizes differ, else free.
double transform(int from_block, int to_block, double elements) {
  return from_block == to_block ? 0.0 : elements * kPerElement;
}

// Edge matrix from the producers' output blocks to the consumers' input blocks.
Matrix transforms(const std::vector<int>& out_blocks, const std::vector<int>& in_blocks, double elements) {
  Matrix costs(static_cast<Eigen::Index>(out_blocks.size()), static_cast<Eigen::Index>(in_blocks.size()));
  for (size_t i = 0; i < out_blocks.size(); ++i)
    for (size_t j = 0; j < in_blocks.size(); ++j)
      costs(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = transform(out_blocks[i], in_blocks[j], elements);
  return costs;
}

void expect_picks(const Problem& problem, const Assignment& expected) {
  for (const char* name : {"dp", "pbqp", "exact"}) {
    CAPTURE(name);
    const Solution answer = make_solver(name)->solve(problem, testing::deterministic());
    CHECK(answer.assignment == expected);
    CHECK(answer.optimal);
  }
}

// conv0 (3->16, 8x8) -> conv1 (16->32, 1x1) -> conv2 (32->32); out = add(conv1, conv2).
// Candidates: the records' tile_ic / tile_oc give each schedule's input / output block.
Problem conv_chain_with_add() {
  Problem problem;
  problem.add_node("conv0", testing::vec({0.04, 0.02}), {"ic1 oc4", "ic3 oc8"});
  problem.add_node("conv1", testing::vec({0.012, 0.02}), {"ic8 oc32", "ic4 oc16"});
  problem.add_node("conv2", testing::vec({0.03, 0.045}), {"ic4 oc8", "ic2 oc4"});
  problem.add_edge("conv0", "conv1", transforms({4, 8}, {8, 4}, 16 * 8 * 8));
  problem.add_edge("conv1", "conv2", transforms({32, 16}, {4, 2}, 32 * 8 * 8));
  // add(conv1, conv2) computes in conv1's layout: conv2's output is transformed to it.
  problem.add_edge("conv2", "conv1", transforms({8, 4}, {32, 16}, 32 * 8 * 8));
  return problem;
}

}  // namespace

TEST_CASE("TVM test_DPTuner_run / test_PBQPTuner_run: picks 0.02, 0.012, 0.03") {
  const Problem problem = conv_chain_with_add();
  expect_picks(problem, {1, 0, 0});
  const Solution answer = make_solver("dp")->solve(problem, testing::deterministic());
  CHECK(problem.node(0).costs[answer.assignment[0]] == 0.02);
  CHECK(problem.node(1).costs[answer.assignment[1]] == 0.012);
  CHECK(problem.node(2).costs[answer.assignment[2]] == 0.03);
}

TEST_CASE("TVM test_many_sub_graphs: two independent copies give the same picks") {
  Problem problem = conv_chain_with_add();
  const Problem copy = conv_chain_with_add();
  for (int v = 0; v < 3; ++v) problem.add_node(copy.node(v).name + "_b", copy.node(v).costs);
  for (const Edge& edge : copy.edges()) problem.add_edge(edge.from + 3, edge.to + 3, edge.costs);
  expect_picks(problem, {1, 0, 0, 1, 0, 0});
}

TEST_CASE("TVM test_tuple: invalid concat transforms force the slower 1c candidate") {
  // conv0 (5->2 channels) and conv1 (5->3) are concatenated in conv0's layout. Candidates:
  // conv0 writes 2c (0.01) or 1c (0.03); conv1 writes 3c (0.012) or 1c (0.04). Transforms
  // 3c->2c and 1c->2c are invalid, so conv0 must take its slower 1c schedule.
  Problem problem;
  problem.add_node("conv0", testing::vec({0.01, 0.03}), {"oc2", "oc1"});
  problem.add_node("conv1", testing::vec({0.012, 0.04}), {"oc3", "oc1"});
  const double elements = 3 * 32 * 32;
  problem.add_edge("conv0", "conv1",
                   testing::mat({{kInfinity, kInfinity}, {transform(3, 1, elements), 0.0}}));
  expect_picks(problem, {1, 0});
  CHECK_FALSE(make_solver("greedy")->solve(problem, testing::deterministic()).feasible);
}

TEST_CASE("TVM test_triangle_block: concat of conv0, conv1 and conv2 keeps the same picks") {
  // conv0 -> conv1, data -> conv2, out = concat(conv0, conv1, conv2) in conv0's layout.
  Problem problem;
  problem.add_node("conv0", testing::vec({0.04, 0.02}));
  problem.add_node("conv1", testing::vec({0.012, 0.02}));
  problem.add_node("conv2", testing::vec({0.03, 0.045}));
  problem.add_edge("conv0", "conv1", transforms({4, 8}, {8, 4}, 16 * 8 * 8));
  problem.add_edge("conv1", "conv0", transforms({32, 16}, {4, 8}, 32 * 8 * 8));
  problem.add_edge("conv2", "conv0", transforms({8, 4}, {4, 8}, 32 * 8 * 8));
  expect_picks(problem, {1, 0, 0});
}

}  // namespace layoutopt::solvers
