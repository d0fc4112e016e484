#include "layoutopt/graph/json_io.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base64.h"
#include "layoutopt/graph/error.h"
#include "op_attributes_json.h"
#include "layoutopt/graph/validate.h"

namespace layoutopt::graph {

namespace {

using nlohmann::json;
constexpr const char* kFormat = "layoutopt-graph";
constexpr int kVersion = 1;

const char* kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::input: return "input";
    case ValueKind::parameter: return "parameter";
    case ValueKind::intermediate: return "intermediate";
  }
  return "?";
}

ValueKind parse_kind(const std::string& text, const std::string& context) {
  if (text == "input") return ValueKind::input;
  if (text == "parameter") return ValueKind::parameter;
  if (text == "intermediate") return ValueKind::intermediate;
  throw GraphError(context + ": unknown value kind '" + text + "'");
}

json weights_to_json(const WeightData& data) {
  if (data.is_seeded()) {
    const RandomInit& init = data.random_init();
    return {{"seed", init.seed}, {"center", init.center}, {"spread", init.spread}};
  }
  const auto values = data.values();
  static_assert(std::endian::native == std::endian::little, "weights are stored little-endian");
  return {{"f32_base64", base64_encode({reinterpret_cast<const unsigned char*>(values.data()), values.size_bytes()})}};
}

WeightData weights_from_json(const json& doc, int64_t count, const std::string& context) {
  if (doc.contains("seed"))
    return WeightData::seeded({.seed = require<uint64_t>(doc, "seed", context),
                               .center = require<float>(doc, "center", context),
                               .spread = require<float>(doc, "spread", context)},
                              count);
  const std::vector<unsigned char> bytes = base64_decode(require<std::string>(doc, "f32_base64", context), context);
  if (bytes.size() != static_cast<size_t>(count) * sizeof(float))
    throw GraphError(context + ": weights hold " + std::to_string(bytes.size() / sizeof(float)) +
                     " values, the shape needs " + std::to_string(count));
  std::vector<float> values(static_cast<size_t>(count));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());  // data() may be null when empty
  return WeightData::from_values(std::move(values));
}

json value_to_json(const Value& value) {
  json doc = {{"name", value.name},
              {"kind", kind_name(value.kind)},
              {"shape", value.type.shape},
              {"dtype", to_string(value.type.dtype)}};
  if (value.weights) doc["weights"] = weights_to_json(*value.weights);
  return doc;
}

std::vector<std::string> names_of(const Graph& graph, const std::vector<ValueId>& ids) {
  std::vector<std::string> names;
  for (ValueId id : ids) names.push_back(graph.value(id).name);
  return names;
}

/// Resolves value names while loading; unknown names are a clear error.
class NameTable {
 public:
  explicit NameTable(const Graph& graph) : graph_(graph) {}
  ValueId operator()(const std::string& name, const std::string& context) const {
    if (auto id = graph_.find_value(name)) return *id;
    throw GraphError(context + ": refers to unknown value '" + name + "'");
  }

 private:
  const Graph& graph_;
};

/// Files written before layouts moved to the plan name each activation's layout, always the
/// canonical one: accept that, and refuse any other rather than drop it silently.
void check_legacy_layout(const Graph& graph, ValueId id, const json& doc, const std::string& context) {
  if (!doc.contains("layout")) return;
  layout::Layout given;
  try {
    given = layout::Layout::parse(require<std::string>(doc, "layout", context));
  } catch (const layout::LayoutError& e) {
    throw GraphError(context + ": " + e.what());
  }
  const size_t rank = graph.value(id).type.shape.size();
  if (rank >= 2 && rank <= 4 && given == layout::canonical_data_layout(rank)) return;
  throw GraphError(context + ": layout '" + given.str() +
                   "' in a graph file: graphs hold no layouts (a plan file assigns them); remove the field");
}

/// Adds the node that produces intermediate value `output` (described by `doc`).
void load_node(Graph& graph, const json& doc, const json& value_doc) {
  const auto name = require<std::string>(doc, "name", "node");
  const std::string context = "node '" + name + "'";
  std::vector<ValueId> inputs;
  for (const auto& input : require<std::vector<std::string>>(doc, "inputs", context)) {
    const auto id = graph.find_value(input);
    if (!id) throw GraphError(context + ": refers to unknown value '" + input + "'");
    inputs.push_back(*id);
  }
  const auto output = require<std::string>(doc, "output", context);
  const std::string value_context = "value '" + output + "'";
  const TensorType type{require<Shape>(value_doc, "shape", value_context),
                        parse_dtype(require<std::string>(value_doc, "dtype", value_context))};
  const Op op = op_from_json(require<std::string>(doc, "op", context), require<json>(doc, "attrs", context), context);
  const ValueId out = graph.add_node_typed(name, op, std::move(inputs), type);
  if (graph.value(out).name != output)
    throw GraphError(context + ": output must be named like the node ('" + name + "'), found '" + output + "'");
  check_legacy_layout(graph, out, value_doc, value_context);
}

/// Inputs and parameters come first, then each node with its output value: documents
/// list values in that canonical order, so loading and saving again gives the same text.
void load_values_and_nodes(Graph& graph, const json& document) {
  std::unordered_map<std::string, const json*> intermediates;
  for (const json& doc : require_field(document, "values", "graph")) {
    const auto name = require<std::string>(doc, "name", "value");
    const std::string context = "value '" + name + "'";
    const ValueKind kind = parse_kind(require<std::string>(doc, "kind", context), context);
    const TensorType type{require<Shape>(doc, "shape", context),
                          parse_dtype(require<std::string>(doc, "dtype", context))};
    if (kind == ValueKind::input) check_legacy_layout(graph, graph.add_input(name, type), doc, context);
    if (kind == ValueKind::parameter)
      graph.add_parameter(name, type.shape,
                          weights_from_json(require<json>(doc, "weights", context), element_count(type.shape), context));
    if (kind == ValueKind::intermediate) intermediates[name] = &doc;
  }
  for (const json& doc : require_field(document, "nodes", "graph")) {
    const auto output = require<std::string>(doc, "output", "node " + doc.value("name", std::string("?")));
    const auto value_doc = intermediates.find(output);
    if (value_doc == intermediates.end())
      throw GraphError("node '" + doc.value("name", std::string("?")) + "': output '" + output +
                       "' is not listed in values");
    load_node(graph, doc, *value_doc->second);
  }
}

}  // namespace

json to_json(const Graph& graph) {
  json values = json::array();
  for (const Value& value : graph.values())
    if (value.kind != ValueKind::intermediate) values.push_back(value_to_json(value));
  for (const Node& node : graph.nodes()) values.push_back(value_to_json(graph.value(node.output)));
  json nodes = json::array();
  for (const Node& node : graph.nodes())
    nodes.push_back({{"name", node.name},
                     {"op", op_name(node.op)},
                     {"attrs", op_attributes_to_json(node.op)},
                     {"inputs", names_of(graph, node.inputs)},
                     {"output", graph.value(node.output).name}});
  return {{"format", kFormat},     {"version", kVersion}, {"name", graph.name()},
          {"values", values},      {"nodes", nodes},      {"inputs", names_of(graph, graph.inputs())},
          {"outputs", names_of(graph, graph.outputs())}};
}

Graph graph_from_json(const json& document) {
  // Compared as JSON: a "format" or "version" of another type is a wrong document, not a type error.
  if (!document.is_object() || document.value("format", json()) != kFormat)
    throw GraphError("not a layoutopt graph document (expected \"format\": \"" + std::string(kFormat) + "\")");
  if (document.value("version", json()) != kVersion)
    throw GraphError("unsupported graph document version " + document.value("version", json()).dump());
  Graph graph(require<std::string>(document, "name", "graph"));
  load_values_and_nodes(graph, document);
  const NameTable lookup(graph);
  for (const auto& name : require<std::vector<std::string>>(document, "outputs", "graph"))
    graph.add_output(lookup(name, "graph outputs"));
  if (require<std::vector<std::string>>(document, "inputs", "graph") != names_of(graph, graph.inputs()))
    throw GraphError("graph inputs do not list the input values in their order");
  validate(graph);
  return graph;
}

void save_json(const Graph& graph, const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw GraphError("cannot write '" + path.string() + "'");
  out << to_json(graph).dump(1) << "\n";
  if (!out) throw GraphError("failed writing '" + path.string() + "'");
}

Graph load_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw GraphError("cannot open '" + path.string() + "'");
  json document;
  try {
    document = json::parse(in);
  } catch (const json::exception& e) {
    throw GraphError("'" + path.string() + "' is not valid JSON: " + e.what());
  }
  try {
    return graph_from_json(document);
  } catch (const GraphError& e) {
    throw GraphError("'" + path.string() + "': " + e.what());
  }
}

}  // namespace layoutopt::graph
