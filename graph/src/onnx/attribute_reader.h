#pragma once
// Typed access to a node's attributes. A missing attribute yields the caller's default (the
// one the ONNX operator spec gives); an attribute of the wrong type is a GraphError naming
// the node, since silently reading the wrong field would build a different network.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto.h"

namespace layoutopt::graph::onnx {

class AttributeReader {
 public:
  /// `node_label` prefixes errors, e.g. "node 'conv1' (Conv)".
  AttributeReader(const pb::NodeProto& node, std::string node_label);

  [[nodiscard]] bool has(std::string_view name) const;
  [[nodiscard]] int64_t get_int(std::string_view name, int64_t fallback) const;
  [[nodiscard]] float get_float(std::string_view name, float fallback) const;
  [[nodiscard]] std::string get_string(std::string_view name, const std::string& fallback) const;
  [[nodiscard]] std::vector<int64_t> get_ints(std::string_view name, const std::vector<int64_t>& fallback) const;
  [[nodiscard]] std::vector<float> get_floats(std::string_view name) const;
  /// A TENSOR attribute that must be present (Constant's value).
  [[nodiscard]] const pb::TensorProto& get_tensor(std::string_view name) const;

 private:
  /// The attribute called `name`, checked to have type `expected`; null when absent.
  [[nodiscard]] const pb::AttributeProto* find(std::string_view name, pb::AttributeProto::AttributeType expected) const;

  const pb::NodeProto& node_;
  std::string label_;
};

}  // namespace layoutopt::graph::onnx
