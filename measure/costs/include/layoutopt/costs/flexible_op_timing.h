#pragma once
// Measured costs of the layout-flexible operators: pooling, global average pooling, the
// elementwise operators with a blocked kernel (kernels/lowering.h: activations, binary ops
// with a same-shape, per-channel or constant operand), channel shuffle, concat, channel
// slice (step 1), batch norm and pad on 4-D tensors. Each runs in NCHW[x]c layouts (every
// operand in the same block; flexible_blocks.h says which x fit), so its cost per block is
// measured by compiling the blocked kernel from kernels/ and timing it on random data with
// the shared cost procedure (cost_policy.h), exactly as transforms are timed: node and edge
// costs add up.
//
// Operators without a kernel of their own are timed on a stand-in that moves the same data,
// and say so in their label: pad (a relu over the padded output: one read and one write of
// it), clip with bounds other than [0, 6] (relu6), and add / mul with a broadcast other than
// per-channel (a relu over the output). A concat is timed doing what a compiled network
// does: copying only the inputs that cannot be written straight into their slice of the
// output (concat_slice_offsets; at batch 1, none), so it may cost no more than its step.

#include <map>
#include <mutex>
#include <string>

#include "layoutopt/graph/graph.h"
#include "layoutopt/planning/kernel_choice.h"
#include "layoutopt/timing/timing.h"

namespace layoutopt::costs {

/// What running one flexible node in one block costs and how it was run.
struct FlexibleOpCost {
  double ms = 0.0;
  std::string label;     ///< "max_pool2d NCHW16c ow8", with "(stand-in: ...)" for proxies
  planning::FlexibleKernel kernel;  ///< kernel, desc and schedule: what a compile step rebuilds
};

class FlexibleOpTimer {
 public:
  explicit FlexibleOpTimer(timing::TimingPolicy policy) : policy_(policy) {}

  /// True for the operators above when the node's output is 4-D (and concat joins, or slice
  /// splits, channels).
  [[nodiscard]] static bool handles(const graph::Graph& graph, graph::NodeId id);

  /// Compiles and times node `id` with every tensor in NCHW[block]c (block 1: NCHW). Timed
  /// once per distinct (kernel desc, block) and then served from memory, so the many
  /// identical pools or adds of a network cost one measurement. Throws KernelError when the
  /// block does not fit a tensor.
  [[nodiscard]] FlexibleOpCost cost(const graph::Graph& graph, graph::NodeId id, int64_t block) const;

 private:
  timing::TimingPolicy policy_;
  mutable std::mutex mutex_;
  mutable std::map<planning::FlexibleKernel, FlexibleOpCost> cache_;
};

}  // namespace layoutopt::costs
