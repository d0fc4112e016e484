#pragma once
// What the passes that move a batch norm elsewhere read of it (internal).

#include <cmath>
#include <span>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

inline std::span<const float> weights_of(const Graph& graph, ValueId id) { return graph.value(id).weights->values(); }

/// True when every one of `ids` from position `from` on is a parameter (a constant).
inline bool all_parameters(const Graph& graph, const std::vector<ValueId>& ids, size_t from) {
  for (size_t i = from; i < ids.size(); ++i)
    if (graph.value(ids[i]).kind != ValueKind::parameter) return false;
  return true;
}

/// The factor a batch norm multiplies channel c by: gamma[c] / sqrt(variance[c] + epsilon).
inline float normalization_factor(float gamma, float variance, float epsilon) {
  return gamma / std::sqrt(variance + epsilon);
}

}  // namespace layoutopt::graph
