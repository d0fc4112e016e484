#pragma once
// Graph-level clean-ups on the ONNX graph before anything is converted, so the converters
// see what the exporter meant rather than how it spelled it:
//  - readers of an Identity read its input instead (exporters put Identity between a
//    deduplicated initializer and each of its users, and around graph outputs);
//  - nodes whose outputs reach no graph output are dropped (dead shape arithmetic, unused
//    branches), so they can neither fail the import nor cost anything.

#include "proto.h"

namespace layoutopt::graph::onnx {

/// Rewrites node inputs that name an Identity's output to that Identity's (transitive)
/// input. Identity nodes whose output is a graph output are kept; the others become dead.
/// Returns how many Identity nodes nothing reads any more.
int forward_identities(pb::GraphProto& graph);

/// Removes nodes none of whose outputs a graph output depends on; returns how many.
int remove_dead_nodes(pb::GraphProto& graph);

/// Orders the nodes so every node comes after the producers of its inputs (the ONNX spec
/// requires it, but hand-edited files break it). Throws GraphError on a cycle.
void sort_topologically(pb::GraphProto& graph);

}  // namespace layoutopt::graph::onnx
