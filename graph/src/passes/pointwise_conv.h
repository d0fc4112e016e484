#pragma once
// Which convs act on each pixel alone (internal, shared by the passes that move or merge them).

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// A conv that computes each output pixel from the same input pixel alone, as one affine
/// map (per group): 1x1, unit stride, unpadded, nothing after its bias, no input scale or
/// prologue (either would make the map nonlinear or depend on another tensor).
inline bool is_pointwise_affine(const Conv2d& conv) {
  return conv.kernel == Hw{1, 1} && conv.stride == Hw{1, 1} && conv.pads == Pads2d{} &&
         conv.epilogue == Epilogue{.bias = conv.epilogue.bias} && !conv.input_scale && !conv.prologue;
}

}  // namespace layoutopt::graph
