#include "import_context.h"

#include "layoutopt/graph/error.h"
#include "node_naming.h"
#include "op_converters.h"
#include "tensor_reader.h"
#include "value_info_reader.h"

namespace layoutopt::graph::onnx {

ImportContext::ImportContext(const pb::GraphProto& graph, int64_t opset, const ImportOptions& options,
                             std::string graph_name)
    : proto_(graph),
      opset_(opset),
      options_(options),
      graph_(std::move(graph_name)),
      constants_(graph),
      fusions_(plan_bias_fusions(graph, constants_)),
      absorbed_(static_cast<size_t>(graph.node_size()), false) {
  for (const pb::NodeProto& node : graph.node()) read_.insert(node.input().begin(), node.input().end());
  for (const pb::ValueInfoProto& output : graph.output()) read_.insert(output.name());
  for (const auto& [matmul, fusion] : fusions_) absorbed_[fusion.add_node] = true;
  classify_weight_inputs(graph);
}

const BiasFusion* ImportContext::bias_fusion(size_t node_index) const {
  const auto it = fusions_.find(node_index);
  return it == fusions_.end() ? nullptr : &it->second;
}

// Decided before converting anything, from the op table alone, so data inputs can be added
// to the graph in file order.
void ImportContext::classify_weight_inputs(const pb::GraphProto& proto) {
  for (const pb::NodeProto& node : proto.node()) {
    const OpConverter* converter = in_default_domain(node) ? find_converter(node.op_type()) : nullptr;
    if (!converter) continue;
    for (const WeightSlot& slot : converter->weights)
      if (slot.input < static_cast<size_t>(node.input_size()))
        weight_roles_.emplace(node.input(static_cast<int>(slot.input)), slot.role);
  }
  for (const auto& [matmul, fusion] : fusions_) weight_roles_.emplace(fusion.bias, ParameterRole::bias);
}

void ImportContext::add_data_inputs(const pb::GraphProto& proto) {
  for (const pb::ValueInfoProto& input : proto.input()) {
    if (constants_.find(input.name())) continue;  // initializers may be listed as inputs too
    if (weight_roles_.contains(input.name())) {
      weight_inputs_.emplace(input.name(), &input);
      continue;
    }
    const DataInput data = read_data_input(input, options_.batch);
    bound_dimensions_.insert(bound_dimensions_.end(), data.bound.begin(), data.bound.end());
    bind(input.name(), graph_.add_input(input.name(), data.type));
  }
}

const Shape* ImportContext::bound_shape(const std::string& tensor) const {
  if (const auto it = values_.find(tensor); it != values_.end()) return &graph_.value(it->second).type.shape;
  const auto it = deferred_.find(tensor);
  return it == deferred_.end() ? nullptr : &it->second.shape;
}

std::optional<ValueId> ImportContext::value(const std::string& tensor) {
  if (const auto it = values_.find(tensor); it != values_.end()) return it->second;
  if (const auto it = deferred_.find(tensor); it != deferred_.end()) {
    const Deferred& deferred = it->second;
    const ValueId made = graph_.add_node(graph_.unique_name(deferred.node_name), Transpose{.perm = deferred.source.perm},
                                         {deferred.source.value});
    bind(tensor, made);
    return made;
  }
  return weight(tensor, WeightLayout::as_stored);
}

namespace {

/// The permutation of `value`'s shape: axis i of the result is axis perm[i].
Shape permuted(const Shape& shape, const std::vector<int64_t>& perm) {
  Shape out;
  for (const int64_t axis : perm) out.push_back(shape.at(static_cast<size_t>(axis)));
  return out;
}

}  // namespace

void ImportContext::bind_transposed(const std::string& tensor, TransposedValue source, std::string node_name) {
  if (source.perm.empty()) {
    bind(tensor, source.value);
    return;
  }
  Shape shape = permuted(graph_.value(source.value).type.shape, source.perm);
  deferred_[tensor] = Deferred{std::move(source), std::move(shape), std::move(node_name)};
}

std::optional<TransposedValue> ImportContext::transposed_value(const std::string& tensor) {
  if (values_.contains(tensor)) return TransposedValue{values_.at(tensor), {}};
  if (const auto it = deferred_.find(tensor); it != deferred_.end()) return it->second.source;
  if (const std::optional<ValueId> id = weight(tensor, WeightLayout::as_stored)) return TransposedValue{*id, {}};
  return std::nullopt;
}

void ImportContext::bind_alias(const std::string& alias, const std::string& tensor) {
  if (const auto it = deferred_.find(tensor); it != deferred_.end()) deferred_[alias] = it->second;
  else bind(alias, values_.at(tensor));
}

std::optional<ValueId> ImportContext::weight(const std::string& tensor, WeightLayout layout) {
  const auto key = std::make_pair(tensor, layout);
  if (const auto it = parameters_.find(key); it != parameters_.end()) return it->second;
  std::optional<ValueId> id;
  if (const pb::TensorProto* constant = constants_.find(tensor)) id = add_constant_weight(tensor, *constant, layout);
  else if (weight_inputs_.contains(tensor)) id = add_seeded_weight(tensor, layout);
  if (id) parameters_.emplace(key, *id);
  return id;
}

namespace {

/// [rows, cols] -> [cols, rows] for transposed 2-D weights, [cols, rows, 1, 1] as 1x1 filters.
Shape laid_out(Shape shape, WeightLayout layout, const std::string& tensor) {
  if (layout == WeightLayout::as_stored) return shape;
  if (shape.size() != 2)
    throw GraphError("weight '" + tensor + "' has shape " + to_string(shape) + ", expected a 2-D matrix");
  if (layout == WeightLayout::transposed_as_1x1_filter) return {shape[1], shape[0], 1, 1};
  return {shape[1], shape[0]};
}

}  // namespace

// Named after the tensor the graph reads: a Constant node's value attribute has no name.
ValueId ImportContext::add_constant_weight(const std::string& name, const pb::TensorProto& tensor, WeightLayout layout) {
  const Shape stored = tensor_shape(tensor);
  Shape shape = laid_out(stored, layout, name);
  std::vector<float> values = read_floats(tensor);
  if (layout != WeightLayout::as_stored) values = transposed(values, stored[0], stored[1]);
  return graph_.add_parameter(graph_.unique_name(name), std::move(shape),
                              WeightData::from_values(std::move(values)));
}

ValueId ImportContext::add_seeded_weight(const std::string& tensor, WeightLayout layout) {
  const Shape shape = laid_out(weight_input_shape(*weight_inputs_.at(tensor)), layout, tensor);
  ++generated_parameters_;
  generated_values_ += element_count(shape);
  const WeightData data = seeded_weights(weight_roles_.at(tensor), shape, parameter_seed(options_.seed, tensor));
  return graph_.add_parameter(graph_.unique_name(tensor), shape, data);
}

NodeContext::NodeContext(ImportContext& context, const pb::NodeProto& node, size_t index)
    : context_(context), node_(node), index_(index), label_(node_label(node, index)), attributes_(node, label_) {}

void NodeContext::fail(const std::string& what) const { throw GraphError(label_ + ": " + what); }

size_t NodeContext::input_count() const {
  auto count = static_cast<size_t>(node_.input_size());
  while (count > 0 && node_.input(static_cast<int>(count - 1)).empty()) --count;
  return count;
}

bool NodeContext::has_input(size_t slot) const {
  return slot < input_count() && !node_.input(static_cast<int>(slot)).empty();
}

const std::string& NodeContext::input_name(size_t slot) const {
  if (slot >= static_cast<size_t>(node_.input_size()) || node_.input(static_cast<int>(slot)).empty())
    fail("input " + std::to_string(slot) + " is missing");
  return node_.input(static_cast<int>(slot));
}

ValueId NodeContext::input(size_t slot) const {
  const std::string& name = input_name(slot);
  if (const auto id = context_.value(name)) return *id;
  fail("input " + std::to_string(slot) + " '" + name +
       "' is not produced by an earlier node and is neither an initializer nor a graph input");
}

TransposedValue NodeContext::transposed_input(size_t slot) const {
  const std::string& name = input_name(slot);
  if (std::optional<TransposedValue> found = context_.transposed_value(name)) return std::move(*found);
  fail("input " + std::to_string(slot) + " '" + name +
       "' is not produced by an earlier node and is neither an initializer nor a graph input");
}

std::string NodeContext::display() const { return display_name(node_, index_); }

ValueId NodeContext::weight(size_t slot, WeightLayout layout) const {
  const std::string& name = input_name(slot);
  if (const auto id = context_.weight(name, layout)) return *id;
  fail("input " + std::to_string(slot) + " '" + name +
       "' must be a weight (an initializer, a Constant or a graph input), but it is computed by the graph");
}

std::optional<ValueId> NodeContext::fused_bias() const {
  const BiasFusion* fusion = context_.bias_fusion(index_);
  if (!fusion) return std::nullopt;
  if (const auto id = context_.weight(fusion->bias, WeightLayout::as_stored)) return id;
  fail("bias '" + fusion->bias + "' has no values");
}

const pb::TensorProto& NodeContext::constant(size_t slot) const {
  const std::string& name = input_name(slot);
  if (const pb::TensorProto* tensor = context_.constants().find(name)) return *tensor;
  fail("input " + std::to_string(slot) + " '" + name +
       "' must be a constant (an initializer or the output of a Constant node)");
}

std::vector<int64_t> NodeContext::constant_ints(size_t slot) const { return read_ints(constant(slot)); }

bool NodeContext::constant_flag(size_t slot) const {
  const ConstantValue value = decode(constant(slot));
  if (value.size() != 1) fail("input " + std::to_string(slot) + " must be a scalar, found " + std::to_string(value.size()) + " values");
  return value.real(0) != 0.0;
}

Shape NodeContext::constant_shape(size_t slot) const { return tensor_shape(constant(slot)); }

std::vector<float> NodeContext::constant_floats(size_t slot) const { return read_floats(constant(slot)); }

bool NodeContext::is_constant(size_t slot) const {
  return has_input(slot) && context_.constants().find(node_.input(static_cast<int>(slot))) != nullptr;
}

bool NodeContext::is_weight(size_t slot) const {
  return has_input(slot) && context_.is_weight(node_.input(static_cast<int>(slot)));
}

bool NodeContext::output_used(size_t slot) const {
  return slot < output_count() && !node_.output(static_cast<int>(slot)).empty() &&
         context_.is_read(node_.output(static_cast<int>(slot)));
}

void NodeContext::bind_output(size_t slot, ValueId value) const {
  if (slot < output_count() && !node_.output(static_cast<int>(slot)).empty())
    context_.bind(node_.output(static_cast<int>(slot)), value);
}

float NodeContext::constant_scalar(size_t slot) const {
  const std::vector<float> values = read_floats(constant(slot));
  if (values.size() != 1)
    fail("input " + std::to_string(slot) + " must be a scalar, found " + std::to_string(values.size()) + " values");
  return values.front();
}

ValueId NodeContext::add(Op op, std::vector<ValueId> inputs) const {
  Graph& graph = context_.graph();
  return graph.add_node(graph.unique_name(display_name(node_, index_)), std::move(op), std::move(inputs));
}

}  // namespace layoutopt::graph::onnx
