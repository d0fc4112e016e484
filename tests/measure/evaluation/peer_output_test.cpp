// The output head `bench --json` reports is the compiled network's answer on the peers' input,
// so bench/compare_peers.py can hold it against ONNX Runtime's and PyTorch's.

#include "layoutopt/evaluation/peer_output.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/graph_executor.h"

using namespace layoutopt;

TEST_CASE("the peers' input is deterministic, in [-1, 1), and differs by seed") {
  const std::vector<float> a = evaluation::peer_input(4096, 0);
  CHECK(a == evaluation::peer_input(4096, 0));
  CHECK(a != evaluation::peer_input(4096, 1));
  CHECK(std::all_of(a.begin(), a.end(), [](float v) { return v >= -1.0F && v < 1.0F; }));
  const auto [low, high] = std::minmax_element(a.begin(), a.end());
  CHECK(*low < -0.99F);  // the whole range is used, not a corner of it
  CHECK(*high > 0.99F);
}

TEST_CASE("the output head is the compiled network's first outputs on the peers' input") {
  graph::Graph g = graph::zoo::build("resnet-18", {.image_size = 32});
  graph::prepare_for_inference(g);
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  const std::vector<float> head = evaluation::peer_output_head(network, g, 3, 8);
  REQUIRE(head.size() == 8);
  kernels::reference::HostTensor input(g.value(g.inputs().front()).type.shape);
  input.data = evaluation::peer_input(static_cast<int64_t>(input.data.size()), 3);
  const kernels::reference::HostTensor expected = kernels::reference::run_graph(g, {input}).front();
  const float scale = std::max(std::abs(*std::max_element(expected.data.begin(), expected.data.end())),
                               std::abs(*std::min_element(expected.data.begin(), expected.data.end())));
  for (size_t i = 0; i < head.size(); ++i) CHECK(std::abs(head[i] - expected.data[i]) <= 1e-4F * scale);
  CHECK(evaluation::peer_output_head(network, g, 3, 100000).size() == expected.data.size());  // capped
}

TEST_CASE("a network with two inputs, which the peers do not run, gets no head but a message") {
  graph::Graph g("two_inputs");
  const graph::ValueId a = g.add_input("a", {{1, 8, 4, 4}});
  const graph::ValueId b = g.add_input("b", {{1, 8, 4, 4}});
  g.add_output(g.add_node("sum", graph::Add{}, {a, b}));
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
  CHECK_THROWS_WITH_AS((void)evaluation::peer_output_head(network, g), doctest::Contains("'two_inputs' has 2"),
                       kernels::KernelError);
}
