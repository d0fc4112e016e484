#include "layoutopt/graph/passes/fuse_epilogues.h"

#include <algorithm>
#include <optional>

#include "readers.h"

namespace layoutopt::graph {

namespace {

// Hard sigmoid fuses with PyTorch's coefficients only: the epilogue has no parameters.
std::optional<Activation> as_activation(const Op& op) {
  if (std::holds_alternative<Relu>(op)) return Activation::relu;
  if (const auto* clip = std::get_if<Clip>(&op); clip && clip->min == 0.0f && clip->max == 6.0f) return Activation::relu6;
  if (std::holds_alternative<HardSwish>(op)) return Activation::hard_swish;
  if (std::holds_alternative<Silu>(op)) return Activation::silu;
  if (std::holds_alternative<Sigmoid>(op)) return Activation::sigmoid;
  if (const auto* gelu = std::get_if<Gelu>(&op))
    return gelu->form == GeluForm::exact ? Activation::gelu : Activation::gelu_tanh;
  if (const auto* hard = std::get_if<HardSigmoid>(&op); hard && hard->alpha == 1.0f / 6.0f && hard->beta == 0.5f)
    return Activation::hard_sigmoid;
  return std::nullopt;
}

// Nodes that only reshape: same values in the same order.
bool is_shape_only(const Op& op) { return std::holds_alternative<Reshape>(op) || std::holds_alternative<Flatten>(op); }

// Where a node keeps the activation applied to its result: before the residual add
// (conv, dense, batch norm) or after it (conv only); null where the node has no such slot.
Activation* activation_slot(Node& node, bool after_residual) {
  if (auto* conv = std::get_if<Conv2d>(&node.op))
    return after_residual ? &conv->epilogue.post_activation : &conv->epilogue.activation;
  if (after_residual) return nullptr;
  if (auto* dense = std::get_if<Dense>(&node.op)) return &dense->epilogue.activation;
  if (auto* bn = std::get_if<BatchNorm>(&node.op)) return &bn->activation;
  return nullptr;
}

class EpilogueFuser {
 public:
  explicit EpilogueFuser(Graph& graph)
      : graph_(graph), readers_(graph), removed_(graph.nodes().size(), false) {}

  int run() {
    for (size_t n = 0; n < graph_.nodes().size(); ++n) {
      const auto id = static_cast<NodeId>(n);
      if (removed_[n] || activation_slot(graph_.node(id), false) == nullptr) continue;
      try_activation(id, false);
      if (std::holds_alternative<Conv2d>(graph_.node(id).op) && try_residual(id)) try_activation(id, true);
    }
    if (absorbed_) graph_.remove_nodes(removed_);
    return absorbed_;
  }

 private:
  /// Absorbs the reader of `id`'s result into `id`: its readers now read `id`'s output.
  void absorb(NodeId id, NodeId reader) {
    const ValueId from = graph_.node(reader).output;
    const ValueId to = graph_.node(id).output;
    graph_.replace_uses(from, to);
    readers_.moved(from, to);
    removed_[static_cast<size_t>(reader)] = true;
    ++absorbed_;
  }

  /// An activation reading `id`'s result, or reading a reshape or flatten that alone reads
  /// it: an elementwise function commutes with moving data, so dense -> reshape -> gelu (a
  /// transformer's MLP, whose dense runs on [tokens, features]) becomes dense(gelu) -> reshape.
  void try_activation(NodeId id, bool after_residual) {
    auto reader = readers_.sole_reader(graph_.node(id).output, removed_);
    if (!reader) return;
    NodeId carrier = id;  // the node whose result the activation reads
    if (is_shape_only(graph_.node(*reader).op)) {
      carrier = *reader;
      reader = readers_.sole_reader(graph_.node(carrier).output, removed_);
      if (!reader) return;
    }
    const auto activation = as_activation(graph_.node(*reader).op);
    Activation* slot = activation_slot(graph_.node(id), after_residual);
    if (!activation || *slot != Activation::none) return;
    *slot = *activation;
    absorb(carrier, *reader);
  }

  /// The residual must already be computed when the conv runs, so only the add operand
  /// produced last in node order absorbs the add.
  bool try_residual(NodeId id) {
    const ValueId out = graph_.node(id).output;
    const auto reader = readers_.sole_reader(out, removed_);
    if (!reader || !std::holds_alternative<Add>(graph_.node(*reader).op)) return false;
    const Node& add = graph_.node(*reader);
    if (add.inputs[0] == add.inputs[1]) return false;
    const ValueId other = add.inputs[0] == out ? add.inputs[1] : add.inputs[0];
    if (graph_.value(other).type != graph_.value(out).type) return false;
    if (graph_.value(other).producer > id) return false;
    Node& conv = graph_.node(id);
    auto& op = std::get<Conv2d>(conv.op);
    op.epilogue.residual = true;
    conv.inputs.insert(conv.inputs.begin() + static_cast<std::ptrdiff_t>(*conv_inputs(op).residual), other);
    absorb(id, *reader);
    return true;
  }

  Graph& graph_;
  Readers readers_;
  std::vector<bool> removed_;
  int absorbed_ = 0;
};

}  // namespace

int fuse_epilogues(Graph& graph) { return EpilogueFuser(graph).run(); }

}  // namespace layoutopt::graph
