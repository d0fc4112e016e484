// The import driver: parse, check the opset and operators, then convert node by node.
#include "layoutopt/graph/onnx/onnx_import.h"

#include <climits>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <unordered_set>

#include "import_context.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/validate.h"
#include "op_converters.h"
#include "proto.h"
#include "unsupported_ops.h"

namespace layoutopt::graph::onnx {

namespace {

constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 18;

pb::ModelProto parse_model(std::string_view bytes, const std::string& name) {
  const std::string not_onnx = "'" + name + "' is not an ONNX model";
  if (bytes.empty()) throw GraphError(not_onnx + " (the file is empty)");
  if (bytes.size() > static_cast<size_t>(INT_MAX)) throw GraphError(not_onnx + " (larger than protobuf's 2 GB limit)");
  pb::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw GraphError(not_onnx + " (protobuf parse failed)");
  // Protobuf accepts many byte strings as some message; a model must at least have a graph.
  if (!model.has_graph()) throw GraphError(not_onnx + " (no graph)");
  return model;
}

int64_t default_opset(const pb::ModelProto& model) {
  for (const pb::OperatorSetIdProto& entry : model.opset_import()) {
    if (!entry.domain().empty() && entry.domain() != "ai.onnx") continue;
    if (entry.version() < kMinOpset || entry.version() > kMaxOpset)
      throw GraphError("opset " + std::to_string(entry.version()) + " is not supported (supported: " +
                       std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
                       "); re-export with e.g. opset_version=13");
    return entry.version();
  }
  throw GraphError("the model imports no ai.onnx opset");
}

void check_not_empty(const pb::GraphProto& graph) {
  if (graph.node_size() == 0) throw GraphError("the graph is empty (no nodes)");
  if (graph.output_size() == 0) throw GraphError("the graph has no outputs");
}

/// Tensors something reads: node inputs and graph outputs.
std::unordered_set<std::string> read_tensors(const pb::GraphProto& graph) {
  std::unordered_set<std::string> read;
  for (const pb::NodeProto& node : graph.node()) read.insert(node.input().begin(), node.input().end());
  for (const pb::ValueInfoProto& output : graph.output()) read.insert(output.name());
  return read;
}

/// Fails unless the node's input count fits its operator and only its first output is read
/// (IR nodes have one output; extra ONNX outputs are masks and indices nobody uses at inference).
void check_signature(const NodeContext& context, const pb::NodeProto& node, const OpConverter& converter,
                     const std::unordered_set<std::string>& read) {
  const size_t count = context.input_count();
  if (count < converter.min_inputs || count > converter.max_inputs) {
    const std::string expected =
        converter.max_inputs == converter.min_inputs ? std::to_string(converter.min_inputs)
        : converter.max_inputs == SIZE_MAX ? "at least " + std::to_string(converter.min_inputs)
                                           : std::to_string(converter.min_inputs) + " to " + std::to_string(converter.max_inputs);
    context.fail("expected " + expected + " inputs, found " + std::to_string(count));
  }
  if (node.output_size() < 1 || node.output(0).empty()) context.fail("has no output");
  for (int i = 1; i < node.output_size(); ++i)
    if (!node.output(i).empty() && read.contains(node.output(i)))
      context.fail("output " + std::to_string(i) + " '" + node.output(i) + "' is used; only the first output is supported");
}

void convert_nodes(ImportContext& context, const pb::GraphProto& graph) {
  const std::unordered_set<std::string> read = read_tensors(graph);
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto index = static_cast<size_t>(i);
    // Constants are folded into the table; an absorbed Add is converted with its MatMul.
    if (context.constants().folded(index) || context.absorbed(index)) continue;
    const pb::NodeProto& node = graph.node(i);
    NodeContext node_context(context, node, index);
    const OpConverter& converter = *find_converter(node.op_type());  // checked by check_supported_ops
    check_signature(node_context, node, converter, read);
    const ValueId output = converter.convert(node_context);
    context.bind(node.output(0), output);
    if (const BiasFusion* fusion = context.bias_fusion(index))
      context.bind(graph.node(static_cast<int>(fusion->add_node)).output(0), output);
  }
}

void add_outputs(ImportContext& context, const pb::GraphProto& graph) {
  for (const pb::ValueInfoProto& output : graph.output()) {
    const std::optional<ValueId> value = context.value(output.name());
    if (!value) throw GraphError("graph output '" + output.name() + "' is not produced by any node");
    context.graph().add_output(*value);
  }
}

std::string producer(const pb::ModelProto& model) {
  if (model.producer_version().empty()) return model.producer_name();
  return model.producer_name() + " " + model.producer_version();
}

ImportResult import_model(const pb::ModelProto& model, const std::string& graph_name, const ImportOptions& options) {
  const int64_t opset = default_opset(model);
  const pb::GraphProto& graph = model.graph();
  check_not_empty(graph);
  ImportContext context(graph, opset, options, graph_name);
  check_supported_ops(graph, context.constants());
  context.add_data_inputs(graph);
  convert_nodes(context, graph);
  add_outputs(context, graph);
  ImportResult result{.graph = context.take_graph(),
                      .opset = opset,
                      .producer = producer(model),
                      .generated_parameters = context.generated_parameters(),
                      .generated_values = context.generated_values()};
  validate(result.graph);
  return result;
}

}  // namespace

ImportResult import_onnx_bytes(std::string_view bytes, const std::string& name, const ImportOptions& options) {
  const pb::ModelProto model = parse_model(bytes, name);
  try {
    return import_model(model, std::filesystem::path(name).stem().string(), options);
  } catch (const GraphError& error) {
    throw GraphError("'" + name + "': " + error.what());
  }
}

ImportResult import_onnx(const std::filesystem::path& path, const ImportOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw GraphError("cannot open '" + path.string() + "'");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw GraphError("cannot read '" + path.string() + "'");
  return import_onnx_bytes(bytes, path.string(), options);
}

}  // namespace layoutopt::graph::onnx
