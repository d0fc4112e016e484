#include "layoutopt/graph/ops.h"

#include "layoutopt/graph/overloaded.h"

namespace layoutopt::graph {

std::string op_name(const Op& op) {
  return std::visit(Overloaded{
                        [](const Conv2d&) { return "conv2d"; },
                        [](const Dense&) { return "dense"; },
                        [](const BatchNorm&) { return "batch_norm"; },
                        [](const Relu&) { return "relu"; },
                        [](const Clip&) { return "clip"; },
                        [](const Sigmoid&) { return "sigmoid"; },
                        [](const Add&) { return "add"; },
                        [](const Mul&) { return "mul"; },
                        [](const Concat&) { return "concat"; },
                        [](const Pool2d& p) { return p.kind == PoolKind::max ? "max_pool2d" : "avg_pool2d"; },
                        [](const GlobalAvgPool&) { return "global_avg_pool2d"; },
                        [](const Flatten&) { return "flatten"; },
                        [](const Reshape&) { return "reshape"; },
                        [](const Transpose&) { return "transpose"; },
                        [](const Softmax&) { return "softmax"; },
                        [](const Pad&) { return "pad"; },
                        [](const Dropout&) { return "dropout"; },
                        [](const Identity&) { return "identity"; },
                        [](const Tanh&) { return "tanh"; },
                        [](const HardSigmoid&) { return "hard_sigmoid"; },
                        [](const HardSwish&) { return "hard_swish"; },
                        [](const LeakyRelu&) { return "leaky_relu"; },
                        [](const PRelu&) { return "prelu"; },
                        [](const Sub&) { return "sub"; },
                        [](const Div&) { return "div"; },
                        [](const Max&) { return "max"; },
                        [](const Min&) { return "min"; },
                        [](const ReduceMean&) { return "reduce_mean"; },
                        [](const ConvTranspose2d&) { return "conv_transpose2d"; },
                        [](const Lrn&) { return "lrn"; },
                        [](const Resize&) { return "resize"; },
                        [](const Slice&) { return "slice"; },
                        [](const ChannelShuffle&) { return "channel_shuffle"; },
                        [](const Silu&) { return "silu"; },
                    },
                    op);
}

ConvInputs conv_inputs(const Conv2d& conv) {
  ConvInputs inputs;
  const auto take = [&inputs](bool present) { return present ? std::optional(inputs.count++) : std::nullopt; };
  inputs.bias = take(conv.epilogue.bias);
  inputs.residual = take(conv.epilogue.residual);
  inputs.scale = take(conv.input_scale);
  return inputs;
}

bool is_depthwise(const Conv2d& conv, int64_t in_channels) {
  return conv.groups > 1 && conv.groups == in_channels;
}

}  // namespace layoutopt::graph
