#pragma once
// The schedule a network runs with when nobody planned it: one fixed layout policy, no
// tuning. Every conv2d runs the default config of its default algorithm
// (TunableOp::conv2d_default_algorithm: Winograd on large enough images, else direct) and
// every dense its default config (blocks of default_channel_block); every 4-D
// layout-flexible node (pooling, elementwise, concat, ...) runs in default_channel_block of
// the channels it touches; everything else in canonical layout.
// The compiler inserts transforms wherever neighbours disagree.

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"

namespace layoutopt::kernels {

[[nodiscard]] NetworkSchedule default_network_schedule(const graph::Graph& graph);

}  // namespace layoutopt::kernels
