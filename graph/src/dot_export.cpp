#include "layoutopt/graph/dot_export.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\n') {  // a line break inside a label (notes, captions)
      out += "\\n";
      continue;
    }
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

/// " 3x3/2 g4": a convolution's kernel, its stride when not 1 and its groups when not 1.
std::string window_summary(Hw kernel, Hw stride, int64_t groups) {
  std::string text = " " + std::to_string(kernel.h) + "x" + std::to_string(kernel.w);
  if (stride.h > 1) text += "/" + std::to_string(stride.h);
  if (groups > 1) text += " g" + std::to_string(groups);
  return text;
}

std::string node_label(const Graph& graph, const Node& node) {
  std::string label = escape(node.name) + "\\n" + op_name(node.op);
  if (const auto* c = std::get_if<Conv2d>(&node.op)) {
    label += window_summary(c->kernel, c->stride, c->groups);
    if (c->input_scale) label += " (x*scale)";
    if (c->prologue) label += " (bn+act(x))";
  }
  if (const auto* t = std::get_if<ConvTranspose2d>(&node.op)) label += window_summary(t->kernel, t->stride, t->groups);
  if (const auto* shuffle = std::get_if<ChannelShuffle>(&node.op)) label += " g" + std::to_string(shuffle->groups);
  return label + "\\n" + to_string(graph.value(node.output).type.shape);
}

std::string value_source(const Graph& graph, ValueId value) {
  const NodeId producer = graph.value(value).producer;
  return producer == kNoProducer ? "v" + std::to_string(value) : "n" + std::to_string(producer);
}

// Where the edge carrying `value` to a reader starts: an edge node placed on it, or else the
// value's producer (a graph input when it has none).
std::string edge_source(const Graph& graph, const DotStyle& style, ValueId value, NodeId reader, bool to_output) {
  for (size_t e = 0; e < style.edge_nodes.size(); ++e) {
    const DotEdgeNode& inserted = style.edge_nodes[e];
    if (inserted.value != value) continue;
    const bool on_edge = to_output ? inserted.to_outputs
                                   : std::find(inserted.readers.begin(), inserted.readers.end(), reader) !=
                                         inserted.readers.end();
    if (on_edge) return "e" + std::to_string(e);
  }
  return value_source(graph, value);
}

void write_node(std::ostream& dot, const Graph& graph, const DotStyle& style, NodeId id) {
  std::string label = node_label(graph, graph.node(id));
  if (style.node_note) {
    if (std::string note = style.node_note(id); !note.empty()) label += "\\n" + escape(note);
  }
  dot << "  n" << id << " [label=\"" << label << "\"";
  if (style.node_color) {
    if (std::string color = style.node_color(id); !color.empty()) dot << ", fillcolor=\"" << color << "\"";
  }
  dot << "];\n";
}

void write_edge_nodes(std::ostream& dot, const Graph& graph, const DotStyle& style) {
  for (size_t e = 0; e < style.edge_nodes.size(); ++e) {
    const DotEdgeNode& inserted = style.edge_nodes[e];
    dot << "  e" << e << " [shape=" << inserted.shape << ", style=filled, fillcolor=\"" << escape(inserted.color)
        << "\", fontsize=10, label=\"" << escape(inserted.label) << "\"];\n";
    dot << "  " << value_source(graph, inserted.value) << " -> e" << e << ";\n";
  }
}

}  // namespace

std::string to_dot(const Graph& graph, const DotStyle& style) {
  std::ostringstream dot;
  dot << "digraph \"" << escape(graph.name()) << "\" {\n"
      << "  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica];\n";
  if (!style.caption.empty()) dot << "  labelloc=t;\n  label=\"" << escape(style.caption) << "\";\n";
  for (size_t v = 0; v < graph.values().size(); ++v) {
    const Value& value = graph.values()[v];
    if (value.kind != ValueKind::input) continue;
    dot << "  v" << v << " [shape=ellipse, fillcolor=lightgrey, label=\"" << escape(value.name) << "\\n"
        << to_string(value.type.shape) << "\"];\n";
  }
  for (size_t n = 0; n < graph.nodes().size(); ++n) write_node(dot, graph, style, static_cast<NodeId>(n));
  write_edge_nodes(dot, graph, style);
  for (size_t n = 0; n < graph.nodes().size(); ++n)
    for (ValueId input : graph.nodes()[n].inputs) {
      if (graph.value(input).kind == ValueKind::parameter) continue;
      dot << "  " << edge_source(graph, style, input, static_cast<NodeId>(n), false) << " -> n" << n << ";\n";
    }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const ValueId output = graph.outputs()[i];
    dot << "  out" << i << " [shape=ellipse, fillcolor=lightgrey, label=\"" << escape(graph.value(output).name)
        << "\"];\n";
    if (graph.value(output).producer != kNoProducer)
      dot << "  " << edge_source(graph, style, output, kNoProducer, true) << " -> out" << i << ";\n";
  }
  dot << "}\n";
  return dot.str();
}

void save_dot(const Graph& graph, const std::filesystem::path& path, const DotStyle& style) {
  std::ofstream out(path);
  if (!out) throw GraphError("cannot write '" + path.string() + "'");
  out << to_dot(graph, style);
}

}  // namespace layoutopt::graph
