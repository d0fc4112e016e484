#include "layoutopt/planning/layout_problem.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "layoutopt/graph/topology.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::planning {

namespace {

using solvers::kInfinity;
using solvers::Matrix;

layout::Layout canonical_layout_of(const graph::Value& value) {
  return layout::canonical_data_layout(value.type.shape.size());
}

std::string signature(const NodeCandidate& candidate) {
  std::string text;
  for (const layout::Layout& input : candidate.inputs) text += input.str() + ",";
  return text + "->" + candidate.output.str();
}

std::string describe(const NodeCandidate& candidate) {
  return signature(candidate) + (candidate.label.empty() ? "" : " " + candidate.label);
}

// A hub node has one candidate per set of layouts that may be materialized together; more
// than this and the binary encoding (one node per layout) is used instead.
constexpr size_t kMaxHubCandidates = 64;

/// The non-empty sets (bit masks over `layouts` layouts) of at most `readers` layouts, or
/// none when there are more than kMaxHubCandidates of them.
std::vector<uint32_t> layout_sets(size_t layouts, size_t readers) {
  if (layouts > 16) return {};
  std::vector<uint32_t> sets;
  for (uint32_t set = 1; set < (1U << layouts); ++set) {
    if (static_cast<size_t>(std::popcount(set)) > readers) continue;
    if (sets.size() == kMaxHubCandidates) return {};
    sets.push_back(set);
  }
  return sets;
}

}  // namespace

std::vector<NodeCandidate> cheapest_per_signature(std::vector<NodeCandidate> candidates) {
  // Keyed by the layouts themselves: their text is for messages only.
  using Signature = std::pair<std::vector<layout::Layout>, layout::Layout>;
  std::map<Signature, NodeCandidate> best;
  for (NodeCandidate& candidate : candidates) {
    auto [it, inserted] = best.try_emplace(Signature{candidate.inputs, candidate.output}, candidate);
    if (!inserted && candidate.ms < it->second.ms) it->second = std::move(candidate);
  }
  std::vector<NodeCandidate> kept;
  for (auto& [key, candidate] : best) kept.push_back(std::move(candidate));
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  return kept;
}

LayoutProblem::LayoutProblem(const graph::Graph& graph, const CostSource& costs)
    : graph_(&graph), candidates_(graph.nodes().size()), decision_of_(graph.nodes().size(), -1),
      uses_(graph.values().size()) {
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto inputs = activation_inputs(graph, static_cast<graph::NodeId>(n));
    for (size_t slot = 0; slot < inputs.size(); ++slot)
      uses_[static_cast<size_t>(inputs[slot])].push_back({static_cast<graph::NodeId>(n), slot});
  }
  add_boundary_nodes();
  add_graph_nodes(costs);
  for (size_t v = 0; v < graph.values().size(); ++v)
    if (graph.values()[v].kind != graph::ValueKind::parameter) connect(static_cast<graph::ValueId>(v), costs);
}

const std::vector<NodeCandidate>& LayoutProblem::candidates(graph::NodeId id) const {
  return candidates_.at(static_cast<size_t>(id));
}

void LayoutProblem::add_boundary_nodes() {
  for (graph::ValueId input : graph_->inputs())
    input_node_.push_back(problem_.add_node("input:" + graph_->value(input).name, solvers::Vector::Zero(1),
                                            {canonical_layout_of(graph_->value(input)).str()}));
  for (graph::ValueId output : graph_->outputs())
    output_node_.push_back(problem_.add_node(problem_.find("output:" + graph_->value(output).name)
                                                 ? "output:" + graph_->value(output).name + "#" +
                                                       std::to_string(output_node_.size())
                                                 : "output:" + graph_->value(output).name,
                                             solvers::Vector::Zero(1),
                                             {canonical_layout_of(graph_->value(output)).str()}));
}

void LayoutProblem::add_graph_nodes(const CostSource& costs) {
  for (graph::NodeId id : graph::topological_order(*graph_)) {
    const graph::Node& node = graph_->node(id);
    std::vector<NodeCandidate> offered = costs.candidates(*graph_, id);
    offered_ += offered.size();
    if (offered.empty())
      throw std::runtime_error("cost source '" + costs.name() + "' offers no way to run node '" + node.name + "' (" +
                               graph::op_name(node.op) + ")");
    const size_t inputs = activation_inputs(*graph_, id).size();
    for (const NodeCandidate& candidate : offered)
      if (candidate.inputs.size() != inputs)
        throw std::runtime_error("cost source '" + costs.name() + "' gives node '" + node.name + "' a candidate with " +
                                 std::to_string(candidate.inputs.size()) + " input layouts, the node has " +
                                 std::to_string(inputs) + " activation inputs");
    auto& kept = candidates_[static_cast<size_t>(id)] = cheapest_per_signature(std::move(offered));
    solvers::Vector node_costs(static_cast<Eigen::Index>(kept.size()));
    std::vector<std::string> labels;
    for (size_t c = 0; c < kept.size(); ++c) {
      node_costs[static_cast<Eigen::Index>(c)] = kept[c].ms;
      labels.push_back(describe(kept[c]));
    }
    decision_of_[static_cast<size_t>(id)] = problem_.add_node(node.name, std::move(node_costs), std::move(labels));
  }
}

LayoutProblem::Endpoint LayoutProblem::producer_of(graph::ValueId value) const {
  const graph::Value& v = graph_->value(value);
  if (v.producer == graph::kNoProducer) {
    const auto& inputs = graph_->inputs();
    const auto index = static_cast<size_t>(std::find(inputs.begin(), inputs.end(), value) - inputs.begin());
    return {input_node_.at(index), {canonical_layout_of(v)}};
  }
  Endpoint producer{decision_of_[static_cast<size_t>(v.producer)], {}};
  for (const NodeCandidate& candidate : candidates(v.producer)) producer.layouts.push_back(candidate.output);
  return producer;
}

std::vector<LayoutProblem::Endpoint> LayoutProblem::readers_of(graph::ValueId value) const {
  std::vector<Endpoint> readers;
  for (const auto& [id, slot] : uses_[static_cast<size_t>(value)]) {
    Endpoint reader{decision_of_[static_cast<size_t>(id)], {}};
    for (const NodeCandidate& candidate : candidates(id)) reader.layouts.push_back(candidate.inputs[slot]);
    readers.push_back(std::move(reader));
  }
  for (size_t o = 0; o < graph_->outputs().size(); ++o)
    if (graph_->outputs()[o] == value) readers.push_back({output_node_[o], {canonical_layout_of(graph_->value(value))}});
  return readers;
}

void LayoutProblem::connect(graph::ValueId value, const CostSource& costs) {
  const std::vector<Endpoint> readers = readers_of(value);
  if (readers.empty()) return;
  const Endpoint producer = producer_of(value);
  if (readers.size() == 1) connect_pair(graph_->value(value).type.shape, producer, readers[0], costs);
  else connect_shared(value, producer, readers, costs);
}

void LayoutProblem::connect_pair(const graph::Shape& shape, const Endpoint& producer, const Endpoint& reader,
                                 const CostSource& costs) {
  Matrix matrix(static_cast<Eigen::Index>(producer.layouts.size()), static_cast<Eigen::Index>(reader.layouts.size()));
  for (size_t p = 0; p < producer.layouts.size(); ++p)
    for (size_t r = 0; r < reader.layouts.size(); ++r)
      matrix(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(r)) =
          costs.transform_ms(shape, producer.layouts[p], reader.layouts[r]);
  problem_.add_edge(producer.node, reader.node, matrices_.intern(std::move(matrix)));
}

void LayoutProblem::connect_shared(graph::ValueId value, const Endpoint& producer, const std::vector<Endpoint>& readers,
                                   const CostSource& costs) {
  std::vector<layout::Layout> wanted;
  for (const Endpoint& reader : readers)
    for (const layout::Layout& l : reader.layouts)
      if (std::find(wanted.begin(), wanted.end(), l) == wanted.end()) wanted.push_back(l);
  const std::vector<uint32_t> sets = layout_sets(wanted.size(), readers.size());
  if (sets.empty()) connect_materialized(value, producer, readers, wanted, costs);
  else connect_hub(value, producer, readers, wanted, sets, costs);
}

void LayoutProblem::connect_hub(graph::ValueId value, const Endpoint& producer, const std::vector<Endpoint>& readers,
                                const std::vector<layout::Layout>& wanted, const std::vector<uint32_t>& sets,
                                const CostSource& costs) {
  const graph::Shape& shape = graph_->value(value).type.shape;
  std::vector<std::string> labels;
  for (uint32_t set : sets) {
    std::string label;
    for (size_t l = 0; l < wanted.size(); ++l)
      if (set >> l & 1U) label += (label.empty() ? "{" : ",") + wanted[l].str();
    labels.push_back(label + "}");
  }
  const auto hub_size = static_cast<Eigen::Index>(sets.size());
  const solvers::NodeId hub =
      problem_.add_node(graph_->value(value).name + "@layouts", solvers::Vector::Zero(hub_size), std::move(labels));
  Matrix charge = Matrix::Zero(static_cast<Eigen::Index>(producer.layouts.size()), hub_size);
  for (size_t p = 0; p < producer.layouts.size(); ++p)
    for (size_t h = 0; h < sets.size(); ++h)
      for (size_t l = 0; l < wanted.size(); ++l)
        if (sets[h] >> l & 1U)
          charge(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(h)) +=
              costs.transform_ms(shape, producer.layouts[p], wanted[l]);
  problem_.add_edge(producer.node, hub, matrices_.intern(std::move(charge)));
  for (const Endpoint& reader : readers) {
    Matrix require = Matrix::Constant(hub_size, static_cast<Eigen::Index>(reader.layouts.size()), kInfinity);
    for (size_t h = 0; h < sets.size(); ++h)
      for (size_t r = 0; r < reader.layouts.size(); ++r) {
        const auto l = static_cast<size_t>(std::find(wanted.begin(), wanted.end(), reader.layouts[r]) - wanted.begin());
        if (sets[h] >> l & 1U) require(static_cast<Eigen::Index>(h), static_cast<Eigen::Index>(r)) = 0.0;
      }
    problem_.add_edge(hub, reader.node, matrices_.intern(std::move(require)));
  }
}

void LayoutProblem::connect_materialized(graph::ValueId value, const Endpoint& producer,
                                         const std::vector<Endpoint>& readers,
                                         const std::vector<layout::Layout>& wanted, const CostSource& costs) {
  const graph::Shape& shape = graph_->value(value).type.shape;
  for (const layout::Layout& l : wanted) {
    // State 0: this layout of the tensor does not exist; state 1: it is materialized.
    const solvers::NodeId materialized = problem_.add_node(
        graph_->value(value).name + "@" + l.str(), solvers::Vector::Zero(2), {"absent", "materialized"});
    Matrix charge = Matrix::Zero(static_cast<Eigen::Index>(producer.layouts.size()), 2);
    for (size_t p = 0; p < producer.layouts.size(); ++p)
      charge(static_cast<Eigen::Index>(p), 1) = costs.transform_ms(shape, producer.layouts[p], l);
    problem_.add_edge(producer.node, materialized, matrices_.intern(std::move(charge)));
    for (const Endpoint& reader : readers) {
      Matrix require = Matrix::Zero(2, static_cast<Eigen::Index>(reader.layouts.size()));
      for (size_t r = 0; r < reader.layouts.size(); ++r)
        if (reader.layouts[r] == l) require(0, static_cast<Eigen::Index>(r)) = kInfinity;
      problem_.add_edge(materialized, reader.node, matrices_.intern(std::move(require)));
    }
  }
}

std::vector<layout::Layout> LayoutProblem::chosen_wants(graph::ValueId value, std::span<const int> assignment) const {
  std::vector<layout::Layout> wants;
  for (const Endpoint& reader : readers_of(value)) {
    const layout::Layout& l = reader.layouts.at(static_cast<size_t>(assignment[static_cast<size_t>(reader.node)]));
    if (std::find(wants.begin(), wants.end(), l) == wants.end()) wants.push_back(l);
  }
  return wants;
}

LayoutAssignment LayoutProblem::decode(std::span<const int> assignment, const CostSource& costs) const {
  if (assignment.size() != problem_.node_count())
    throw std::runtime_error("assignment has " + std::to_string(assignment.size()) + " entries, the problem has " +
                             std::to_string(problem_.node_count()) + " nodes");
  LayoutAssignment result;
  result.choice.resize(graph_->nodes().size());
  for (size_t n = 0; n < graph_->nodes().size(); ++n) {
    const auto pick = static_cast<size_t>(assignment[static_cast<size_t>(decision_of_[n])]);
    result.choice[n] = candidates_[n].at(pick);
    result.node_ms += result.choice[n].ms;
  }
  for (size_t v = 0; v < graph_->values().size(); ++v) {
    const auto value = static_cast<graph::ValueId>(v);
    if (graph_->value(value).kind == graph::ValueKind::parameter) continue;
    const Endpoint producer = producer_of(value);
    const layout::Layout& have =
        producer.layouts.at(static_cast<size_t>(assignment[static_cast<size_t>(producer.node)]));
    for (const layout::Layout& want : chosen_wants(value, assignment)) {
      if (layout::same_memory_order(graph_->value(value).type.shape, have, want)) continue;
      const double ms = costs.transform_ms(graph_->value(value).type.shape, have, want);
      result.transforms.push_back({value, have, want, ms});
      result.transform_ms += ms;
    }
  }
  return result;
}

}  // namespace layoutopt::planning
