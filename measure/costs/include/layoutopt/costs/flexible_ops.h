#pragma once
// The layout-flexible operators and what each runs in one channel block: pooling, global
// average pooling, the elementwise operators with a blocked kernel (kernels/lowering.h:
// activations, binary ops with a same-shape, per-channel or constant operand), channel
// shuffle, concat, channel slice (step 1; at batch 1 a view, nothing timed), resize, batch
// norm, layer norm over the channels and pad on 4-D tensors. Each runs in NCHW[x]c layouts,
// every operand in the same block (flexible_blocks.h says which x fit), on the blocked
// kernel from kernels/ that a compiled network runs for it.
//
// Operators without a kernel of their own run a stand-in that moves the same data, and say
// so in their label: pad (a relu over the padded output: one read and one write of it), clip
// with bounds other than [0, 6] (relu6), and add / mul with a broadcast other than
// per-channel (a relu over the output). A concat runs what a compiled network does: it copies
// only the inputs that cannot be written straight into their slice of the output
// (concat_slice_offsets; at batch 1, none), so it may cost no more than its step.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/planning/cost_source.h"
#include "layoutopt/planning/kernel_choice.h"

namespace layoutopt::costs {

/// True for the operators above when the node's output is 4-D (and concat joins, slice
/// splits or layer norm normalizes channels).
[[nodiscard]] bool is_layout_flexible(const graph::Graph& graph, graph::NodeId id);

/// What a flexible node runs in one block.
struct FlexibleOp {
  planning::FlexibleKernel kernel;  ///< kernel, desc and schedule: what a compile step rebuilds
  std::string label;                ///< "NCHW16c max_pool2d ow8", with "(stand-in: ...)" for proxies
  /// JIT-compiles the kernels it runs, one after another (a concat: one per copied input).
  std::function<std::vector<kernels::Kernel>()> compile;
};

/// Node `id` (layout-flexible) with every tensor in NCHW[block]c (block 1: NCHW). Compiles
/// nothing. Throws kernels::KernelError when the block does not fit a tensor.
[[nodiscard]] FlexibleOp flexible_op(const graph::Graph& graph, graph::NodeId id, int64_t block);

/// What a layout-rigid node runs in its canonical layouts when a kernel computes it there, as
/// a compiled network lowers it: layer norm over any axis, softmax over the last, activations
/// and binary ops of any rank on flat operands (one shape, or a scalar constant), step-1
/// slices that are not views. nullopt for layout-flexible nodes, views (batch-1 slices
/// included), transposes and what runs as reference code. Compiles nothing.
[[nodiscard]] std::optional<FlexibleOp> canonical_op(const graph::Graph& graph, graph::NodeId id);

/// The blocks node `id` (layout-flexible) is offered in: those dividing the channels its
/// kernels need (flexible_channel_bound) whose layouts `offered` holds for all its
/// activation tensors. Timing and pricing both ask here, so each prices what was timed.
[[nodiscard]] std::vector<int64_t> offered_blocks(const graph::Graph& graph, graph::NodeId id,
                                                  const ShapeLayouts& offered);

/// Node `id`'s candidate in NCHW[block]c: its layouts, label and kernel; `ms` is left 0 for
/// the caller to price.
[[nodiscard]] planning::NodeCandidate flexible_candidate(const graph::Graph& graph, graph::NodeId id, int64_t block);

}  // namespace layoutopt::costs
