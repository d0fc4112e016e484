#include "layoutopt/graph/ops.h"

#include "layoutopt/graph/overloaded.h"

namespace layoutopt::graph {

OpKind op_kind(const Op& op) {
  return std::visit(Overloaded{
                        [](const Conv2d&) { return OpKind::conv2d; },
                        [](const Dense&) { return OpKind::dense; },
                        [](const BatchNorm&) { return OpKind::batch_norm; },
                        [](const Relu&) { return OpKind::relu; },
                        [](const Clip&) { return OpKind::clip; },
                        [](const Sigmoid&) { return OpKind::sigmoid; },
                        [](const Add&) { return OpKind::add; },
                        [](const Mul&) { return OpKind::mul; },
                        [](const Concat&) { return OpKind::concat; },
                        [](const Pool2d& p) { return p.kind == PoolKind::max ? OpKind::max_pool2d : OpKind::avg_pool2d; },
                        [](const GlobalAvgPool&) { return OpKind::global_avg_pool2d; },
                        [](const Flatten&) { return OpKind::flatten; },
                        [](const Reshape&) { return OpKind::reshape; },
                        [](const Transpose&) { return OpKind::transpose; },
                        [](const Softmax&) { return OpKind::softmax; },
                        [](const Pad&) { return OpKind::pad; },
                        [](const Dropout&) { return OpKind::dropout; },
                        [](const Identity&) { return OpKind::identity; },
                        [](const Tanh&) { return OpKind::tanh; },
                        [](const HardSigmoid&) { return OpKind::hard_sigmoid; },
                        [](const HardSwish&) { return OpKind::hard_swish; },
                        [](const LeakyRelu&) { return OpKind::leaky_relu; },
                        [](const PRelu&) { return OpKind::prelu; },
                        [](const Sub&) { return OpKind::sub; },
                        [](const Div&) { return OpKind::div; },
                        [](const Max&) { return OpKind::max; },
                        [](const Min&) { return OpKind::min; },
                        [](const ReduceMean&) { return OpKind::reduce_mean; },
                        [](const ConvTranspose2d&) { return OpKind::conv_transpose2d; },
                        [](const Lrn&) { return OpKind::lrn; },
                        [](const Resize&) { return OpKind::resize; },
                        [](const Slice&) { return OpKind::slice; },
                        [](const ChannelShuffle&) { return OpKind::channel_shuffle; },
                        [](const Silu&) { return OpKind::silu; },
                        [](const Gelu&) { return OpKind::gelu; },
                        [](const LayerNorm&) { return OpKind::layer_norm; },
                        [](const BatchMatMul&) { return OpKind::batch_matmul; },
                    },
                    op);
}

std::string op_name(const Op& op) { return std::string(to_string(op_kind(op))); }

ConvInputs conv_inputs(const Conv2d& conv) {
  ConvInputs inputs;
  const auto take = [&inputs](bool present) { return present ? std::optional(inputs.count++) : std::nullopt; };
  inputs.bias = take(conv.epilogue.bias);
  inputs.residual = take(conv.epilogue.residual);
  inputs.scale = take(conv.input_scale);
  inputs.prologue_scale = take(conv.prologue.has_value());
  inputs.prologue_shift = take(conv.prologue.has_value());
  return inputs;
}

bool is_depthwise(const Conv2d& conv, int64_t in_channels) {
  return conv.groups > 1 && conv.groups == in_channels;
}

}  // namespace layoutopt::graph
