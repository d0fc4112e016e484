#pragma once
// NetworkSchedule: how every node of a prepared graph runs, the one input of
// CompiledNetwork::compile. Per node: the layout each activation input is read in, the
// layout the output is written in and, for conv2d / dense, the knobs of the kernel's schedule
// (a point of the node's TunableOp space). Layout-flexible operators (pooling, batch norm,
// elementwise, concat, softmax) take their channel block from these layouts; their other
// knobs are fixed defaults. Layouts are data, as in XLA's layout assignment: a plan file, a
// baseline heuristic or a test can each produce a schedule, and one compiler serves them all.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct NodeSchedule {
  std::vector<layout::Layout> inputs;    ///< per activation input (graph::activation_inputs)
  layout::Layout output;
  std::map<std::string, int64_t> knobs;  ///< conv2d / dense: tile_ic=16, tile_oc=32, ...
};

struct NetworkSchedule {
  std::vector<NodeSchedule> nodes;  ///< indexed by graph NodeId
};

}  // namespace layoutopt::kernels
