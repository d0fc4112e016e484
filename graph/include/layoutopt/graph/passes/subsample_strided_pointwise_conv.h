#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Splits a strided 1x1 conv without padding into the subsampling it does and a unit-stride
/// 1x1 conv:
///   x -> conv 1x1 stride s                becomes      x -> pool 1x1 stride s -> conv 1x1
/// The pool (an average over a one-pixel window: a copy of every s-th pixel) is exact, and
/// the conv keeps its name, weights and epilogue. Returns how many convs were split.
///
/// Why: a strided 1x1 conv reads every s-th pixel of its input, so its tiles broadcast from
/// rows of which they use a fraction of each cache line, and it ran at about half the FMA
/// peak in ResNet-50 where its unit-stride neighbours ran at 80% or more; the copy costs
/// one pass over the pixels kept (docs/design/pool-before-conv.md).
int subsample_before_strided_pointwise_convs(Graph& graph);

}  // namespace layoutopt::graph
