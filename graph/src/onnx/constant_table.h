#pragma once
// Every tensor whose value is known at import time: initializers, Constant nodes' values and
// what the importer folded (constant_folding.h). Converters read them as weights or as
// attribute-like inputs (Reshape's shape, Clip's bounds, Pad's pads); fold rules read them
// decoded.

#include <deque>
#include <string>
#include <unordered_map>

#include "constant_value.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

class ConstantTable {
 public:
  /// Indexes the initializers and Constant nodes of `graph`, which must outlive the table.
  explicit ConstantTable(const pb::GraphProto& graph);
  ConstantTable(const ConstantTable&) = delete;
  ConstantTable& operator=(const ConstantTable&) = delete;

  /// The constant called `name` as stored, or null when it is computed at run time or a
  /// graph input.
  [[nodiscard]] const pb::TensorProto* find(const std::string& name) const;
  /// The constant called `name` decoded (cached), or null.
  [[nodiscard]] const ConstantValue* value(const std::string& name);
  [[nodiscard]] bool contains(const std::string& name) const { return tensors_.contains(name); }

  /// Records a folded value.
  void add(const std::string& name, ConstantValue value);

 private:
  void add_constant_node(const pb::NodeProto& node, size_t index);

  std::unordered_map<std::string, const pb::TensorProto*> tensors_;
  std::unordered_map<std::string, const ConstantValue*> decoded_;
  // Deques keep pointers stable as they grow.
  std::deque<pb::TensorProto> owned_tensors_;
  std::deque<ConstantValue> owned_values_;
};

}  // namespace layoutopt::graph::onnx
