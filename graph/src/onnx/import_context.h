#pragma once
// State of one import: the graph being built, which ONNX tensor is which IR value, and where
// weights come from. NodeContext is the view a converter gets of the node it converts: its
// inputs resolved to IR values, its attributes, and errors that name it.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "attribute_reader.h"
#include "constant_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/weight_init.h"
#include "matmul_bias.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

/// How a 2-D weight is stored relative to the IR's [out, in]: MatMul and Gemm with transB=0
/// store [in, out]; transposed_as_1x1_filter reads [in, out] as a 1x1 conv's [out, in, 1, 1].
enum class WeightLayout { as_stored, transposed, transposed_as_1x1_filter };

/// An ONNX tensor that is a transpose of an IR value no node computes yet: tensor =
/// transpose(value, perm), so tensor axis i is value axis perm[i]. Converters that can read
/// the value in its own axis order do (ConvNeXt's permute to NHWC and back is then only a
/// layout change); any other reader gets a Transpose node made on first use.
struct TransposedValue {
  ValueId value = -1;
  std::vector<int64_t> perm;  ///< empty for a value read in its own order
};

class ImportContext {
 public:
  /// Indexes `graph`, which must outlive the context.
  ImportContext(const pb::GraphProto& graph, int64_t opset, const ImportOptions& options, std::string graph_name);

  /// Tensors something reads: node inputs and graph outputs.
  [[nodiscard]] bool is_read(const std::string& tensor) const { return read_.contains(tensor); }

  /// Adds the graph inputs read as data, in file order; the other inputs are weights. A
  /// separate step so that unsupported operators are reported before any input problem.
  void add_data_inputs(const pb::GraphProto& proto);

  [[nodiscard]] Graph& graph() { return graph_; }
  [[nodiscard]] const pb::NodeProto& proto_node(size_t index) const { return proto_.node(static_cast<int>(index)); }
  [[nodiscard]] Graph take_graph() { return std::move(graph_); }
  [[nodiscard]] int64_t opset() const { return opset_; }
  [[nodiscard]] const ImportOptions& options() const { return options_; }
  [[nodiscard]] ConstantTable& constants() { return constants_; }
  /// The shape of a tensor already bound to an IR value, or null.
  [[nodiscard]] const Shape* bound_shape(const std::string& tensor) const;
  /// Graph inputs whose symbolic dimensions were bound (see ImportResult::bound_dimensions).
  [[nodiscard]] const std::vector<BoundDimension>& bound_dimensions() const { return bound_dimensions_; }

  /// The bias fused into MatMul node `node_index`, if any.
  [[nodiscard]] const BiasFusion* bias_fusion(size_t node_index) const;
  /// True for Add nodes merged into the MatMul before them.
  [[nodiscard]] bool absorbed(size_t node_index) const { return absorbed_[node_index]; }

  /// The IR value of a tensor read as data: a node output or data input bound earlier, or a
  /// constant or weight input (which becomes a parameter). Null for unknown tensors.
  [[nodiscard]] std::optional<ValueId> value(const std::string& tensor);
  /// The parameter for a tensor read as a weight, with its values or, for weight inputs
  /// without values, seeded ones. Null unless the tensor is a constant or a weight input.
  [[nodiscard]] std::optional<ValueId> weight(const std::string& tensor, WeightLayout layout);
  /// True for a constant or a graph input read as a weight: a tensor fixed before the run.
  [[nodiscard]] bool is_weight(const std::string& tensor) const {
    return constants_.contains(tensor) || weight_inputs_.contains(tensor);
  }
  /// Records that ONNX tensor `tensor` is IR value `value`.
  void bind(const std::string& tensor, ValueId value) { values_[tensor] = value; }
  /// Records that ONNX tensor `tensor` is `source` transposed by a non-identity `perm`, with
  /// no node computing it (see TransposedValue); `node_name` names the Transpose node made
  /// if a reader needs one.
  void bind_transposed(const std::string& tensor, TransposedValue source, std::string node_name);
  /// The tensor as an IR value and the permutation still to apply (none when the tensor is
  /// computed), without making a Transpose node. Null for unknown tensors.
  [[nodiscard]] std::optional<TransposedValue> transposed_value(const std::string& tensor);
  /// Makes `alias` the same tensor as the already bound `tensor`, transposed or not.
  void bind_alias(const std::string& alias, const std::string& tensor);

  [[nodiscard]] int generated_parameters() const { return generated_parameters_; }
  [[nodiscard]] int64_t generated_values() const { return generated_values_; }

 private:
  void classify_weight_inputs(const pb::GraphProto& proto);
  ValueId add_constant_weight(const std::string& name, const pb::TensorProto& tensor, WeightLayout layout);
  ValueId add_seeded_weight(const std::string& tensor, WeightLayout layout);

  const pb::GraphProto& proto_;
  int64_t opset_;
  ImportOptions options_;
  std::unordered_set<std::string> read_;
  Graph graph_;
  ConstantTable constants_;
  std::unordered_map<size_t, BiasFusion> fusions_;
  std::vector<bool> absorbed_;
  /// Tensors some operator reads as a weight, with the role the first such reader implies.
  std::unordered_map<std::string, ParameterRole> weight_roles_;
  /// Graph inputs without initializer that are read as weights.
  std::unordered_map<std::string, const pb::ValueInfoProto*> weight_inputs_;
  std::unordered_map<std::string, ValueId> values_;
  /// Tensors bound as transposes no node computes yet, with their ONNX shapes and the name
  /// of the Transpose node a reader that needs one gets.
  struct Deferred {
    TransposedValue source;
    Shape shape;
    std::string node_name;
  };
  std::unordered_map<std::string, Deferred> deferred_;
  std::vector<BoundDimension> bound_dimensions_;
  /// Parameters made so far, by tensor name and layout (a weight may be read both ways).
  std::map<std::pair<std::string, WeightLayout>, ValueId> parameters_;
  int generated_parameters_ = 0;
  int64_t generated_values_ = 0;
};

class NodeContext {
 public:
  NodeContext(ImportContext& context, const pb::NodeProto& node, size_t index);

  [[nodiscard]] const AttributeReader& attributes() const { return attributes_; }
  [[nodiscard]] int64_t opset() const { return context_.opset(); }
  /// Inputs the node lists, not counting trailing omitted optional ones.
  [[nodiscard]] size_t input_count() const;
  /// True when optional input `slot` is given (ONNX omits one with an empty name).
  [[nodiscard]] bool has_input(size_t slot) const;

  /// Input `slot` read as an activation.
  [[nodiscard]] ValueId input(size_t slot) const;
  /// Input `slot` read as a weight; it must be a constant or a weight input.
  [[nodiscard]] ValueId weight(size_t slot, WeightLayout layout = WeightLayout::as_stored) const;
  /// The bias of a MatMul + Add pair (see matmul_bias.h), if this node has one.
  [[nodiscard]] std::optional<ValueId> fused_bias() const;
  /// Input `slot` as constant integers / a constant scalar (Reshape's shape, Clip's bounds).
  [[nodiscard]] std::vector<int64_t> constant_ints(size_t slot) const;
  [[nodiscard]] float constant_scalar(size_t slot) const;
  /// Constant scalar input `slot` is non-zero (of any element type: Dropout's training_mode
  /// is BOOL).
  [[nodiscard]] bool constant_flag(size_t slot) const;
  /// The shape of constant input `slot` (a scalar is []).
  [[nodiscard]] Shape constant_shape(size_t slot) const;
  /// Input `slot` as constant floats (Resize's scales).
  [[nodiscard]] std::vector<float> constant_floats(size_t slot) const;
  /// True when input `slot` is given and its value is known at import.
  [[nodiscard]] bool is_constant(size_t slot) const;
  /// True when input `slot` is given and is a weight (ImportContext::is_weight).
  [[nodiscard]] bool is_weight(size_t slot) const;

  /// Outputs the node lists (multi-output converters bind the ones after the first).
  [[nodiscard]] size_t output_count() const { return static_cast<size_t>(node_.output_size()); }
  [[nodiscard]] bool output_used(size_t slot) const;
  void bind_output(size_t slot, ValueId value) const;

  [[nodiscard]] const Shape& shape(ValueId value) const { return context_.graph().value(value).type.shape; }
  /// Adds an IR node named after this ONNX node; shape errors name it.
  [[nodiscard]] ValueId add(Op op, std::vector<ValueId> inputs) const;

  /// Input `slot` as an IR value and the permutation that turns it into the ONNX tensor,
  /// for converters that can work in the value's own axis order (TransposedValue).
  [[nodiscard]] TransposedValue transposed_input(size_t slot) const;
  /// The node's output is the returned value transposed by `perm` (empty: as returned).
  void set_output_perm(std::vector<int64_t> perm) { output_perm_ = std::move(perm); }
  [[nodiscard]] const std::vector<int64_t>& output_perm() const { return output_perm_; }
  /// The ONNX node's display name (for the Transpose node a deferred output may need).
  [[nodiscard]] std::string display() const;

  [[noreturn]] void fail(const std::string& what) const;

 private:
  [[nodiscard]] const std::string& input_name(size_t slot) const;
  [[nodiscard]] const pb::TensorProto& constant(size_t slot) const;

  ImportContext& context_;
  const pb::NodeProto& node_;
  size_t index_;
  std::string label_;
  AttributeReader attributes_;
  std::vector<int64_t> output_perm_;
};

}  // namespace layoutopt::graph::onnx
