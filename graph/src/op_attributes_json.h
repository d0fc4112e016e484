#pragma once
// Operator attributes as JSON objects, and the strict field reader shared by all loaders.

#include <nlohmann/json.hpp>
#include <string>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/json_number.h"
#include "layoutopt/graph/ops.h"

namespace layoutopt::graph {

/// Reads `doc[key]` as T; a missing field or wrong type is a GraphError naming both.
template <class T>
T require(const nlohmann::json& doc, const char* key, const std::string& context) {
  if (!doc.is_object() || !doc.contains(key)) throw GraphError(context + ": missing field '" + key + "'");
  if (!reads_exactly<T>(doc.at(key)))
    throw GraphError(context + ": field '" + key + "' is out of range or of the wrong type (" +
                     doc.at(key).type_name() + ")");
  try {
    return doc.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw GraphError(context + ": field '" + key + "' has the wrong type (" + doc.at(key).type_name() + ")");
  }
}

/// The field itself (no copy), for arrays and objects the caller walks.
inline const nlohmann::json& require_field(const nlohmann::json& doc, const char* key, const std::string& context) {
  if (!doc.is_object() || !doc.contains(key)) throw GraphError(context + ": missing field '" + key + "'");
  return doc.at(key);
}

[[nodiscard]] nlohmann::json op_attributes_to_json(const Op& op);
/// Builds the operator named `name` (as printed by op_name) from its attributes.
[[nodiscard]] Op op_from_json(const std::string& name, const nlohmann::json& attrs, const std::string& context);

}  // namespace layoutopt::graph
