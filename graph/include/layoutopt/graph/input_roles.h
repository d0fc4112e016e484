#pragma once
// What each activation input is to the node reading it, from the operator's flags: the one
// place that knows a conv2d's fused residual and input scale apart from its data, so no
// caller infers roles by counting inputs.

#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::graph {

enum class InputRole {
  data,      ///< what the operator computes on
  residual,  ///< a conv2d's fused residual, added to its output
  scale,     ///< a conv2d's input scale [N, C_in, 1, 1]
};

/// "input", "residual" or "input scale", for messages.
[[nodiscard]] const char* to_string(InputRole role);

/// The role of each of activation_inputs(graph, id), in that order.
[[nodiscard]] std::vector<InputRole> activation_input_roles(const Graph& graph, NodeId id);

/// The layouts a conv2d or dense kernel reading its data in `input` and writing `output`
/// needs for each of activation_inputs(graph, id): data in `input`, a residual in `output`
/// (it is added in place), an input scale in plain NCHW (any NCHW[x]c with x dividing C
/// stores [N, C, 1, 1] alike, so its producer keeps whichever block it likes for free).
[[nodiscard]] std::vector<layout::Layout> tuned_input_layouts(const Graph& graph, NodeId id,
                                                              const layout::Layout& input,
                                                              const layout::Layout& output);

}  // namespace layoutopt::graph
