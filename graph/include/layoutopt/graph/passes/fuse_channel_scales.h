#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Moves a per-channel scale into the conv that reads the scaled tensor:
///   y = Mul(x, s) -> conv2d(y)          becomes          conv2d(x, scale s)
/// with x a computed [N, C, H, W] activation and s a computed [N, C, 1, 1] one (either
/// operand order), when the conv is 1x1 with groups 1, reads y as its data input alone and is
/// y's only reader, and y is not a graph output. The conv then computes conv(x * s) (its
/// Conv2d::input_scale) and the Mul is removed. Returns how many Muls were fused.
///
/// Why: squeeze-and-excitation (EfficientNet, MobileNet-v3, RegNet-Y, MnasNet) ends with such
/// a Mul before the block's 1x1 projection; as a node of its own it writes and re-reads the
/// block's widest tensor. The conv instead scales each weight vector by its input channel's
/// factor, one multiply per weight vector. 1x1 groups-1 convs only: those are the
/// projections, and no Winograd kernel (3x3) ever has to refuse a scaled input.
int fuse_channel_scales(Graph& graph);

}  // namespace layoutopt::graph
