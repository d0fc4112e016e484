#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Exchanges a 1x1 conv and the average pool that is its only reader, so that the pool
/// runs first and the conv computes on the pooled, smaller image:
///   x -> conv 1x1 (stride 1, no padding) -> avg pool      becomes      x -> avg pool -> conv
/// The results are equal up to rounding: a 1x1 conv is the same linear map at every pixel,
/// and an average pool without padding weighs each window's pixels by factors summing to
/// one, so it passes the bias through unchanged. Pools with padding counted in the divisor,
/// ceil mode (partial windows), convs with a fused activation or residual, and pools that
/// do not shrink the image (nothing to gain) stay. Each node keeps its name with its
/// operator. Returns how many pairs were exchanged.
///
/// Why: DenseNet's transitions end in conv 1x1 -> avg pool 2x2; exchanged, their convs do a
/// quarter of the work, about 9% of DenseNet-201's FLOPs (docs/design/pool-before-conv.md).
int pool_before_pointwise_convs(Graph& graph);

}  // namespace layoutopt::graph
