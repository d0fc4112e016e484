#include "attribute_reader.h"

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

AttributeReader::AttributeReader(const pb::NodeProto& node, std::string node_label)
    : node_(node), label_(std::move(node_label)) {}

const pb::AttributeProto* AttributeReader::find(std::string_view name,
                                                pb::AttributeProto::AttributeType expected) const {
  for (const pb::AttributeProto& attribute : node_.attribute()) {
    if (attribute.name() != name) continue;
    if (attribute.type() != expected)
      throw GraphError(label_ + ": attribute '" + std::string(name) + "' has type " +
                       pb::AttributeProto::AttributeType_Name(attribute.type()) + ", expected " +
                       pb::AttributeProto::AttributeType_Name(expected));
    return &attribute;
  }
  return nullptr;
}

bool AttributeReader::has(std::string_view name) const {
  for (const pb::AttributeProto& attribute : node_.attribute())
    if (attribute.name() == name) return true;
  return false;
}

int64_t AttributeReader::get_int(std::string_view name, int64_t fallback) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::INT);
  return attribute ? attribute->i() : fallback;
}

float AttributeReader::get_float(std::string_view name, float fallback) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::FLOAT);
  return attribute ? attribute->f() : fallback;
}

std::string AttributeReader::get_string(std::string_view name, const std::string& fallback) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::STRING);
  return attribute ? attribute->s() : fallback;
}

std::vector<int64_t> AttributeReader::get_ints(std::string_view name, const std::vector<int64_t>& fallback) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::INTS);
  return attribute ? std::vector<int64_t>(attribute->ints().begin(), attribute->ints().end()) : fallback;
}

std::vector<float> AttributeReader::get_floats(std::string_view name) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::FLOATS);
  return attribute ? std::vector<float>(attribute->floats().begin(), attribute->floats().end()) : std::vector<float>{};
}

const pb::TensorProto& AttributeReader::get_tensor(std::string_view name) const {
  const pb::AttributeProto* attribute = find(name, pb::AttributeProto::TENSOR);
  if (!attribute) throw GraphError(label_ + ": missing attribute '" + std::string(name) + "'");
  return attribute->t();
}

}  // namespace layoutopt::graph::onnx
