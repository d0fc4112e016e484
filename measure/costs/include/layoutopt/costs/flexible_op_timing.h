#pragma once
// Timing the layout-flexible operators (flexible_ops.h), a step of its own before any
// measured cost source is built, as transforms are timed into their table first: the source
// only looks the times up.
//
// Each flexible node is compiled and timed in every block it is offered in (offered_blocks)
// on random data with the shared cost procedure (cost_policy.h), exactly as transforms are
// timed, so node and edge costs add up. A kernel is timed once however many nodes run it: the
// many identical pools or adds of a network cost one measurement. Layout-rigid nodes that run
// a kernel in canonical order (canonical_op: a token tensor's norms, softmax, elementwise ops
// and slices) are timed the same way, once, in that order.

#include <map>

#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/planning/kernel_choice.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/timing/timing.h"

namespace layoutopt::costs {

/// Median milliseconds of each flexible kernel, keyed by what it runs (kernel, desc: its
/// tensors in their block, schedule, stand-in), as the transform table is keyed by shape
/// and layouts.
using FlexibleOpTable = std::map<planning::FlexibleKernel, double>;

/// Times every layout-flexible node of `graph` in every block `offered` allows and every
/// rigid node's canonical kernel, each distinct kernel once, reporting each timing on `progress` (may be null). Throws std::runtime_error
/// naming the node and layout when a kernel cannot be built.
[[nodiscard]] FlexibleOpTable time_flexible_ops(const graph::Graph& graph, const ShapeLayouts& offered,
                                                const timing::TimingPolicy& policy, timing::ProgressReporter* progress);

}  // namespace layoutopt::costs
