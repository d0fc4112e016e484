#pragma once
// Every tensor whose value is known at import time: initializers, outputs of Constant nodes
// and Casts of those. Operators read them as weights or as attribute-like inputs (Reshape's
// shape, Clip's bounds, Pad's pads); Constant and Cast-of-constant nodes themselves never
// reach the imported graph.

#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "proto.h"

namespace layoutopt::graph::onnx {

class ConstantTable {
 public:
  /// Indexes `graph`, which must outlive the table.
  explicit ConstantTable(const pb::GraphProto& graph);
  ConstantTable(const ConstantTable&) = delete;
  ConstantTable& operator=(const ConstantTable&) = delete;

  /// The constant called `name`, or null when it is computed at run time or a graph input.
  [[nodiscard]] const pb::TensorProto* find(const std::string& name) const;
  /// True for nodes evaluated here (Constant, Cast of a constant).
  [[nodiscard]] bool folded(size_t node_index) const { return folded_[node_index]; }

 private:
  void add_constant_node(const pb::NodeProto& node, size_t index);
  /// Folds a Cast whose input is already known to FLOAT or INT64; false when it cannot.
  [[nodiscard]] bool fold_cast(const pb::NodeProto& node, size_t index);
  void add(const std::string& name, pb::TensorProto tensor);

  std::unordered_map<std::string, const pb::TensorProto*> tensors_;
  std::deque<pb::TensorProto> owned_;  ///< tensors built here; a deque keeps pointers stable
  std::vector<bool> folded_;
};

}  // namespace layoutopt::graph::onnx
