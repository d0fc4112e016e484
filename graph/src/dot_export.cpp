#include "layoutopt/graph/dot_export.h"

#include <fstream>
#include <sstream>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

std::string node_label(const Graph& graph, const Node& node) {
  std::string label = escape(node.name) + "\\n" + op_name(node.op);
  if (const auto* conv = std::get_if<Conv2d>(&node.op)) {
    label += " " + std::to_string(conv->kernel.h) + "x" + std::to_string(conv->kernel.w);
    if (conv->stride.h > 1) label += "/" + std::to_string(conv->stride.h);
    if (conv->groups > 1) label += " g" + std::to_string(conv->groups);
  }
  return label + "\\n" + to_string(graph.value(node.output).type.shape);
}

}  // namespace

std::string to_dot(const Graph& graph, const DotStyle& style) {
  std::ostringstream dot;
  dot << "digraph \"" << escape(graph.name()) << "\" {\n"
      << "  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica];\n";
  for (size_t v = 0; v < graph.values().size(); ++v) {
    const Value& value = graph.values()[v];
    if (value.kind != ValueKind::input) continue;
    dot << "  v" << v << " [shape=ellipse, fillcolor=lightgrey, label=\"" << escape(value.name) << "\\n"
        << to_string(value.type.shape) << "\"];\n";
  }
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    std::string label = node_label(graph, node);
    const auto id = static_cast<NodeId>(n);
    if (style.node_note) {
      if (std::string note = style.node_note(id); !note.empty()) label += "\\n" + escape(note);
    }
    dot << "  n" << n << " [label=\"" << label << "\"";
    if (style.node_color) {
      if (std::string color = style.node_color(id); !color.empty()) dot << ", fillcolor=\"" << color << "\"";
    }
    dot << "];\n";
  }
  for (size_t n = 0; n < graph.nodes().size(); ++n)
    for (ValueId input : graph.nodes()[n].inputs) {
      const Value& value = graph.value(input);
      if (value.kind == ValueKind::parameter) continue;
      const std::string from = value.producer == kNoProducer ? "v" + std::to_string(input)
                                                             : "n" + std::to_string(value.producer);
      dot << "  " << from << " -> n" << n << ";\n";
    }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const Value& value = graph.value(graph.outputs()[i]);
    dot << "  out" << i << " [shape=ellipse, fillcolor=lightgrey, label=\"" << escape(value.name) << "\"];\n";
    if (value.producer != kNoProducer) dot << "  n" << value.producer << " -> out" << i << ";\n";
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
