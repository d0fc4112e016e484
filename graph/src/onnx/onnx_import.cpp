// The import driver: parse, canonicalize the ONNX graph (topological order, Identity
// forwarding, opset adaptation, GELU and layer norm spellings recognized, dead-node removal),
// report unsupported operators, then walk the nodes once, evaluating those whose inputs are
// known and converting the rest.
#include "layoutopt/graph/onnx/onnx_import.h"

#include <climits>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>

#include "canonicalize.h"
#include "constant_folding.h"
#include "external_data.h"
#include "import_context.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/validate.h"
#include "node_naming.h"
#include "op_converters.h"
#include "opset_adapter.h"
#include "proto.h"
#include "recognize_patterns.h"
#include "unsupported_ops.h"

namespace layoutopt::graph::onnx {

namespace {

/// Opsets whose operator definitions the converters and opset_adapter know. Newer files are
/// imported anyway; an error then says the opset may be why.
constexpr int64_t kMinOpset = 7;
constexpr int64_t kNewestKnownOpset = 21;

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
    if (entry.version() < kMinOpset)
      throw GraphError("opset " + std::to_string(entry.version()) + " is not supported (supported: " +
                       std::to_string(kMinOpset) + " and newer); re-export with e.g. opset_version=13");
    return entry.version();
  }
  throw GraphError("the model imports no ai.onnx opset");
}

void check_not_empty(const pb::GraphProto& graph) {
  if (graph.node_size() == 0) throw GraphError("the graph is empty (no nodes)");
  if (graph.output_size() == 0) throw GraphError("the graph has no outputs");
}

/// Fails unless the node's input count fits its operator and, for single-output operators,
/// only its first output is read (extra ONNX outputs are masks and indices nobody uses at
/// inference).
void check_signature(const NodeContext& context, const OpConverter& converter) {
  const size_t count = context.input_count();
  if (count < converter.min_inputs || count > converter.max_inputs) {
    const std::string expected =
        converter.max_inputs == converter.min_inputs ? std::to_string(converter.min_inputs)
        : converter.max_inputs == SIZE_MAX ? "at least " + std::to_string(converter.min_inputs)
                                           : std::to_string(converter.min_inputs) + " to " + std::to_string(converter.max_inputs);
    context.fail("expected " + expected + " inputs, found " + std::to_string(count));
  }
  if (context.output_count() < 1) context.fail("has no output");
  if (converter.all_outputs) return;
  for (size_t i = 1; i < context.output_count(); ++i)
    if (context.output_used(i)) context.fail("output " + std::to_string(i) + " is used; only the first output is supported");
}

/// What a fold rule may see of the node's inputs, or nothing when some input it needs is
/// computed by the network. Decoding waits until every input is known: a weight read
/// beside an activation (Mul(w, x)) is never decoded for nothing.
std::optional<std::vector<FoldInput>> fold_inputs(ImportContext& context, const pb::NodeProto& node, const FoldRule& rule) {
  const auto shape_only = [&](int slot) { return rule.dims_only && slot == 0 && context.bound_shape(node.input(slot)); };
  for (int slot = 0; slot < node.input_size(); ++slot) {
    const std::string& name = node.input(slot);
    if (!name.empty() && !context.constants().contains(name) && !shape_only(slot)) return std::nullopt;
  }
  std::vector<FoldInput> inputs;
  for (int slot = 0; slot < node.input_size(); ++slot) {
    const std::string& name = node.input(slot);
    if (name.empty()) inputs.push_back({});
    else if (const ConstantValue* value = context.constants().value(name)) inputs.push_back({&value->dims, value});
    else inputs.push_back({context.bound_shape(name), nullptr});
  }
  return inputs;
}

/// Evaluates the node into the constant table when its inputs allow; false otherwise.
bool try_fold(ImportContext& context, const pb::NodeProto& node, size_t index) {
  const FoldRule* rule = in_default_domain(node) ? find_fold_rule(node.op_type()) : nullptr;
  if (!rule) return false;
  std::optional<std::vector<FoldInput>> inputs = fold_inputs(context, node, *rule);
  if (!inputs) return false;
  const std::vector<ConstantValue> outputs = rule->fold(
      FoldContext(node, node_label(node, index), std::move(*inputs), context.options().max_folded_elements));
  for (size_t k = 0; k < outputs.size() && k < static_cast<size_t>(node.output_size()); ++k)
    context.constants().add(node.output(static_cast<int>(k)), outputs[k]);
  return true;
}

/// True when every output of the node is already known (Constant nodes, indexed up front).
bool already_constant(ImportContext& context, const pb::NodeProto& node) {
  for (const std::string& output : node.output())
    if (!output.empty() && !context.constants().contains(output)) return false;
  return node.output_size() > 0;
}

void convert_node(ImportContext& context, const pb::NodeProto& node, size_t index) {
  NodeContext node_context(context, node, index);
  const OpConverter* converter = in_default_domain(node) ? find_converter(node.op_type()) : nullptr;
  // check_supported_ops let it through for its fold rule, which needs known inputs.
  if (!converter) node_context.fail(uncomputed_input_message(context, node));
  check_signature(node_context, *converter);
  const ValueId output = converter->convert(node_context);
  context.bind_transposed(node.output(0), {output, node_context.output_perm()}, node_context.display());
  if (const BiasFusion* fusion = context.bias_fusion(index))
    context.bind_alias(context.proto_node(fusion->add_node).output(0), node.output(0));
}

/// Returns how many nodes were folded.
int convert_nodes(ImportContext& context, const pb::GraphProto& graph) {
  int folded = 0;
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto index = static_cast<size_t>(i);
    const pb::NodeProto& node = graph.node(i);
    if (already_constant(context, node) || try_fold(context, node, index)) {
      ++folded;
      continue;
    }
    if (context.absorbed(index)) continue;  // an Add merged into its MatMul
    convert_node(context, node, index);
  }
  return folded;
}

void add_outputs(ImportContext& context, const pb::GraphProto& graph) {
  for (const pb::ValueInfoProto& output : graph.output()) {
    if (context.constants().contains(output.name()) && !context.bound_shape(output.name()))
      throw GraphError("graph output '" + output.name() + "' is a constant: it does not depend on any input");
    const std::optional<ValueId> value = context.value(output.name());
    if (!value) throw GraphError("graph output '" + output.name() + "' is not produced by any node");
    context.graph().add_output(*value);
  }
}

std::string producer(const pb::ModelProto& model) {
  if (model.producer_version().empty()) return model.producer_name();
  return model.producer_name() + " " + model.producer_version();
}

struct Canonicalization {
  int identities_bypassed = 0;
  int dead_nodes_removed = 0;  ///< not counting the bypassed identities
};

/// The clean-ups before conversion (canonicalize.h, opset_adapter.h).
Canonicalization canonicalize(pb::GraphProto& graph, int64_t opset) {
  sort_topologically(graph);
  const int bypassed = forward_identities(graph);
  adapt_to_current_opset(graph, opset);
  (void)recognize_patterns(graph);
  return {bypassed, remove_dead_nodes(graph) - bypassed};
}

ImportResult import_model(pb::ModelProto& model, const std::string& graph_name, const ImportOptions& options) {
  const int64_t opset = default_opset(model);
  pb::GraphProto& graph = *model.mutable_graph();
  check_not_empty(graph);
  const Canonicalization canonical = canonicalize(graph, opset);
  ImportContext context(graph, opset, options, graph_name);
  check_supported_ops(graph);
  context.add_data_inputs(graph);
  const int folded = convert_nodes(context, graph);
  add_outputs(context, graph);
  ImportResult result{.graph = context.take_graph(),
                      .opset = opset,
                      .producer = producer(model),
                      .generated_parameters = context.generated_parameters(),
                      .generated_values = context.generated_values(),
                      .bound_dimensions = context.bound_dimensions(),
                      .identities_bypassed = canonical.identities_bypassed,
                      .dead_nodes_removed = canonical.dead_nodes_removed,
                      .nodes_folded = folded};
  validate(result.graph);
  return result;
}

/// Errors in a file newer than the opsets we know say so: the operator's definition may
/// have changed.
std::string with_opset_hint(const std::string& what, const pb::ModelProto& model) {
  for (const pb::OperatorSetIdProto& entry : model.opset_import())
    if ((entry.domain().empty() || entry.domain() == "ai.onnx") && entry.version() > kNewestKnownOpset)
      return what + " (the file uses opset " + std::to_string(entry.version()) + ", newer than the newest this importer knows, " +
             std::to_string(kNewestKnownOpset) + ")";
  return what;
}

/// Imports a parsed model; `directory` holds its external data files (none for bytes).
ImportResult import_parsed(pb::ModelProto& model, const std::string& name,
                           const std::optional<std::filesystem::path>& directory, const ImportOptions& options) {
  try {
    if (directory) load_external_data(*model.mutable_graph(), *directory);
    return import_model(model, std::filesystem::path(name).stem().string(), options);
  } catch (const GraphError& error) {
    throw GraphError("'" + name + "': " + with_opset_hint(error.what(), model));
  }
}

}  // namespace

ImportResult import_onnx_bytes(std::string_view bytes, const std::string& name, const ImportOptions& options) {
  pb::ModelProto model = parse_model(bytes, name);
  return import_parsed(model, name, std::nullopt, options);
}

ImportResult import_onnx(const std::filesystem::path& path, const ImportOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw GraphError("cannot open '" + path.string() + "'");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw GraphError("cannot read '" + path.string() + "'");
  pb::ModelProto model = parse_model(bytes, path.string());
  return import_parsed(model, path.string(), path.parent_path(), options);
}

}  // namespace layoutopt::graph::onnx
