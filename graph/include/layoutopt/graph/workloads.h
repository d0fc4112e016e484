#pragma once
// What a network computes: its parameters, multiply-accumulates, and the distinct compute
// workloads ("tasks") that tuning will measure.

#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Trainable parameters, counted the way frameworks report them: every parameter value
/// except batch-norm running statistics (mean and variance).
[[nodiscard]] int64_t parameter_count(const Graph& graph);

/// Multiply-accumulates of conv2d and dense nodes (the figure papers and torchvision quote).
[[nodiscard]] int64_t mac_count(const Graph& graph);
[[nodiscard]] int64_t mac_count(const Graph& graph, const Node& node);

/// A distinct conv2d / dense computation: what a tuned kernel is specialized for. The
/// epilogue is not part of it, as in AutoTVM's task extraction.
struct Workload {
  std::string kind;  ///< conv2d, depthwise_conv2d, group_conv2d or dense
  Shape input, weight, output;
  Hw stride, dilation;
  Pads2d pads;
  int64_t groups = 1;
  int64_t macs = 0;
  std::vector<NodeId> nodes;  ///< where it occurs

  /// Compact identity, e.g. "conv2d x[1,64,56,56] w[64,64,3,3] s1x1 p1,1,1,1 d1x1 g1".
  [[nodiscard]] std::string signature() const;
};

/// Every distinct workload, in order of first occurrence.
[[nodiscard]] std::vector<Workload> extract_workloads(const Graph& graph);

/// Workload of a single conv2d / dense node (its `nodes` holds just that node).
[[nodiscard]] Workload workload_of(const Graph& graph, NodeId node);

/// True for the operators whose kernels have schedules (conv2d and dense).
[[nodiscard]] bool has_workload(const Node& node);

}  // namespace layoutopt::graph
