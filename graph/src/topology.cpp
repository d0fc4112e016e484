#include "layoutopt/graph/topology.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/topological_sort.hpp>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// Edge producer -> consumer for every node input produced by a node.
DependencyGraph dependency_graph(const Graph& graph) {
  DependencyGraph deps(graph.nodes().size());
  for (size_t n = 0; n < graph.nodes().size(); ++n)
    for (ValueId input : graph.nodes()[n].inputs) {
      const NodeId producer = graph.value(input).producer;
      if (producer != kNoProducer) boost::add_edge(static_cast<size_t>(producer), n, deps);
    }
  return deps;
}

/// Finds a node on a cycle for the error message: after Kahn's algorithm, nodes left
/// with unresolved inputs include every cycle.
NodeId node_on_cycle(const DependencyGraph& deps) {
  std::vector<size_t> pending(boost::num_vertices(deps));
  std::vector<size_t> ready;
  for (size_t v = 0; v < pending.size(); ++v) {
    pending[v] = boost::in_degree(v, deps);
    if (pending[v] == 0) ready.push_back(v);
  }
  while (!ready.empty()) {
    const size_t v = ready.back();
    ready.pop_back();
    for (auto [e, end] = boost::out_edges(v, deps); e != end; ++e)
      if (--pending[boost::target(*e, deps)] == 0) ready.push_back(boost::target(*e, deps));
  }
  for (size_t v = 0; v < pending.size(); ++v)
    if (pending[v] != 0) return static_cast<NodeId>(v);
  return 0;
}

}  // namespace

std::vector<NodeId> topological_order(const Graph& graph) {
  const DependencyGraph deps = dependency_graph(graph);
  std::vector<size_t> reversed;
  try {
    boost::topological_sort(deps, std::back_inserter(reversed));
  } catch (const boost::not_a_dag&) {
    throw GraphError("graph '" + graph.name() + "' has a cycle through node '" +
                     graph.node(node_on_cycle(deps)).name + "'");
  }
  return {reversed.rbegin(), reversed.rend()};
}

Components connected_components(const Graph& graph) {
  const DependencyGraph deps = dependency_graph(graph);
  boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> undirected(boost::num_vertices(deps));
  for (auto [e, end] = boost::edges(deps); e != end; ++e)
    boost::add_edge(boost::source(*e, deps), boost::target(*e, deps), undirected);
  Components result;
  result.of_node.resize(graph.nodes().size());
  result.count = graph.nodes().empty() ? 0 : boost::connected_components(undirected, result.of_node.data());
  return result;
}

}  // namespace layoutopt::graph
