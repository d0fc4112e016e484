#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Folds every batch_norm that directly follows a conv2d (and is that conv's only reader)
/// into the conv's weights and bias: w' = w * s, b' = (b - mean) * s + beta with
/// s = scale / sqrt(variance + epsilon). Batch norms after anything else stay (densenet's
/// pre-activation norms). Returns how many were folded.
int fold_batch_norm(Graph& graph);

}  // namespace layoutopt::graph
