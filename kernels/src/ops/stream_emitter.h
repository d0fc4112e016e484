#pragma once
// The kernel skeleton of the streaming operators (activations, batch norm, elementwise
// binary ops, flatten copies): output[i] = f(input[i], ...) over contiguous float streams,
// vectorized at host width. Operators supply only f (a VectorFunction).
//
// Per-channel operands (batch norm's scale, squeeze-excite's [N, C, 1, 1] factor) need the
// channel of every lane. In NCHW[x]c a stream is one (n, channel block) plane whose channel
// pattern repeats every x floats, so the emitter walks it in periods of lcm(x, vector width)
// floats (x itself when that lcm is too large) and loads the pattern vectors once per work
// item. x = 1 (NCHW) thus becomes a broadcast and x = 16 one plain vector load.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "jit/kernel_module.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/tensor_desc.h"

namespace layoutopt::kernels::ops {

/// `streams` contiguous streams of `length` floats each. With per-channel operands, stream s is
/// the plane (n, channel block) = (s / channel_blocks, s % channel_blocks) of an NCHW[block]c
/// tensor; without them, block is 0 and the layout does not matter.
struct StreamShape {
  int64_t streams = 1;
  int64_t length = 0;
  int64_t block = 0;
  int64_t channel_blocks = 1;
};

/// The whole tensor as one stream (for operators without per-channel operands).
[[nodiscard]] StreamShape whole_tensor(const TensorDesc& tensor);
/// One stream per (n, channel block) plane (for operators with per-channel operands).
[[nodiscard]] StreamShape channel_planes(const TensorDesc& tensor);

/// How a per-channel operand is indexed: a [C] vector, or a [N, C] tensor (the memory of an
/// N x C x 1 x 1 tensor in any NCHW[x]c layout).
enum class ChannelIndex { channel, batch_channel };

struct ChannelOperand {
  llvm::Value* base = nullptr;
  ChannelIndex index = ChannelIndex::channel;
};

/// One output vector's inputs: the input vector, its element offset (where same-shaped
/// operands such as a residual are loaded) and, per ChannelOperand, the matching lanes.
struct VectorSite {
  llvm::Value* input = nullptr;
  llvm::Value* offset = nullptr;
  std::vector<llvm::Value*> channel;
};

using VectorFunction = std::function<llvm::Value*(llvm::IRBuilder<>& builder, const VectorSite& site)>;

/// Work items of `shape` under `schedule` (chunks of all streams).
[[nodiscard]] int64_t stream_work_items(const StreamShape& shape, const ElementwiseSchedule& schedule);

/// Emits the kernel body: output[offset] = function(site) for every vector of the work items.
void emit_stream(jit::KernelModule& module, const StreamShape& shape, const ElementwiseSchedule& schedule,
                 const std::vector<ChannelOperand>& operands, const VectorFunction& function);

}  // namespace layoutopt::kernels::ops
