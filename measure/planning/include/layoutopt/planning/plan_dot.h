#pragma once
// How a plan looks in a Graphviz drawing of its graph: nodes filled with a fixed colour per
// channel block of their output layout (NCHW grey, NCHW8c blue, NCHW16c green, ...), the
// chosen kernel and its time as a note, every inserted transform as a diamond on the edges
// that carry the converted tensor ("NCHW16c -> NCHW8c, 0.012 ms"), and a caption with the
// plan's totals and the colour legend.

#include "layoutopt/graph/dot_export.h"
#include "layoutopt/planning/plan.h"

namespace layoutopt::planning {

/// The style for graph::to_dot; `plan` must be valid for `graph` (validate_plan) and both
/// must outlive the style, whose callbacks refer to them.
[[nodiscard]] graph::DotStyle plan_dot_style(const Plan& plan, const graph::Graph& graph);

}  // namespace layoutopt::planning
