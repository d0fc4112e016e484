#pragma once
// Helpers for ONNX import tests: small models built in memory with the protobuf API, and
// lookups into imported graphs.

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/onnx/onnx_import.h"

namespace onnx_test {

using namespace layoutopt::graph;
namespace import = layoutopt::graph::onnx;

inline int count_nodes(const Graph& g, const std::string& op) {
  int count = 0;
  for (const Node& node : g.nodes()) count += op_name(node.op) == op;
  return count;
}

inline const Node& node_named(const Graph& g, const std::string& name) {
  const auto id = g.find_node(name);
  REQUIRE_MESSAGE(id.has_value(), "no node " << name);
  return g.node(*id);
}

/// Builds small ONNX models in memory with the protobuf API.
class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 13) {
    model_.set_ir_version(8);
    model_.set_producer_name("test");
    auto* entry = model_.add_opset_import();
    entry->set_domain("");
    entry->set_version(opset);
  }

  /// A FLOAT input; a dimension of -1 is symbolic ("batch").
  ModelBuilder& input(const std::string& name, const std::vector<int64_t>& dims) {
    describe(*graph().add_input(), name, dims);
    return *this;
  }
  ModelBuilder& output(const std::string& name) {
    graph().add_output()->set_name(name);
    return *this;
  }
  /// A FLOAT initializer; without values it holds 0.01 * i.
  ModelBuilder& weight(const std::string& name, const std::vector<int64_t>& dims, std::vector<float> values = {}) {
    auto* tensor = graph().add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(::onnx::TensorProto::FLOAT);
    int64_t count = 1;
    for (int64_t dim : dims) {
      tensor->add_dims(dim);
      count *= dim;
    }
    for (int64_t i = 0; i < count; ++i)
      tensor->add_float_data(values.empty() ? 0.01f * static_cast<float>(i) : values[static_cast<size_t>(i)]);
    return *this;
  }
  ModelBuilder& ints(const std::string& name, const std::vector<int64_t>& values) {
    auto* tensor = graph().add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(::onnx::TensorProto::INT64);
    tensor->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t value : values) tensor->add_int64_data(value);
    return *this;
  }
  /// An INT64 scalar initializer (rank 0).
  ModelBuilder& scalar(const std::string& name, int64_t value) {
    auto* tensor = graph().add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(::onnx::TensorProto::INT64);
    tensor->add_int64_data(value);
    return *this;
  }
  /// A Constant node holding a float scalar.
  ModelBuilder& constant(const std::string& name, float value) {
    auto* attribute = node("Constant", name, {}, name).add_attribute();
    attribute->set_name("value");
    attribute->set_type(::onnx::AttributeProto::TENSOR);
    attribute->mutable_t()->set_data_type(::onnx::TensorProto::FLOAT);
    attribute->mutable_t()->add_float_data(value);
    return *this;
  }
  ::onnx::NodeProto& node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
                          const std::string& output) {
    auto* node = graph().add_node();
    node->set_op_type(op);
    node->set_name(name);
    for (const std::string& input : inputs) node->add_input(input);
    node->add_output(output);
    return *node;
  }

  /// Moves initializer `name`'s values to `file` (relative to the model's directory) the
  /// way exporters store weights past protobuf's 2 GB limit, at byte `offset` of the file.
  ModelBuilder& external(const std::string& name, const std::string& file, int64_t offset, const std::string& bytes_at) {
    for (auto& tensor : *graph().mutable_initializer()) {
      if (tensor.name() != name) continue;
      tensor.set_data_location(::onnx::TensorProto::EXTERNAL);
      tensor.clear_float_data();
      for (const auto& [key, value] : {std::pair{"location", file}, std::pair{"offset", std::to_string(offset)},
                                       std::pair{"length", bytes_at}}) {
        auto* entry = tensor.add_external_data();
        entry->set_key(key);
        entry->set_value(value);
      }
    }
    return *this;
  }
  [[nodiscard]] std::string bytes() const { return model_.SerializeAsString(); }
  [[nodiscard]] import::ImportResult import(const import::ImportOptions& options = {}) const {
    return import::import_onnx_bytes(bytes(), "test.onnx", options);
  }

 private:
  ::onnx::GraphProto& graph() { return *model_.mutable_graph(); }
  static void describe(::onnx::ValueInfoProto& info, const std::string& name, const std::vector<int64_t>& dims) {
    info.set_name(name);
    auto* tensor = info.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(::onnx::TensorProto::FLOAT);
    for (int64_t dim : dims) {
      auto* d = tensor->mutable_shape()->add_dim();
      if (dim < 0) d->set_dim_param("batch");
      else d->set_dim_value(dim);
    }
  }

  ::onnx::ModelProto model_;
};

inline void set_ints(::onnx::NodeProto& node, const std::string& name, const std::vector<int64_t>& values) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::INTS);
  for (int64_t value : values) attribute->add_ints(value);
}
inline void set_int(::onnx::NodeProto& node, const std::string& name, int64_t value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::INT);
  attribute->set_i(value);
}
inline void set_float(::onnx::NodeProto& node, const std::string& name, float value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}
inline void set_string(::onnx::NodeProto& node, const std::string& name, const std::string& value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::STRING);
  attribute->set_s(value);
}

inline std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const GraphError& error) {
    return error.what();
  }
  return "<no error>";
}


}  // namespace onnx_test
