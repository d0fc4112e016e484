#include "layoutopt/kernels/batch_norm.h"

#include <cmath>

#include "jit/epilogue_ir.h"
#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

namespace {

CompiledFunction build(const BatchNormDesc& desc, const ElementwiseSchedule& schedule) {
  jit::KernelModule module("batch_norm");
  const ops::StreamShape shape = ops::channel_planes(desc.tensor);
  const std::vector<ops::ChannelOperand> operands{{module.weight(), ops::ChannelIndex::channel},
                                                  {module.bias(), ops::ChannelIndex::channel}};
  const Activation activation = desc.activation;
  ops::emit_stream(module, shape, schedule, operands, [activation](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
    return jit::emit_activation(builder, activation,
                                jit::fused_multiply_add(builder, site.input, site.channel[0], site.channel[1]));
  });
  return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {.weight = true, .bias = true});
}

}  // namespace

void BatchNormDesc::validate() const { tensor.validate("batch_norm", str()); }

std::string BatchNormDesc::str() const {
  const std::string base = "batch_norm_" + tensor.str();
  return activation == Activation::None ? base : base + "_" + to_string(activation);
}

BatchNormCoefficients fold_batch_norm(std::span<const float> gamma, std::span<const float> beta,
                                      std::span<const float> mean, std::span<const float> variance, float epsilon) {
  const size_t channels = gamma.size();
  if (beta.size() != channels || mean.size() != channels || variance.size() != channels)
    throw KernelError("fold_batch_norm: gamma, beta, mean and variance must have the same length");
  BatchNormCoefficients folded{std::vector<float>(channels), std::vector<float>(channels)};
  for (size_t c = 0; c < channels; ++c) {
    const double scale = gamma[c] / std::sqrt(double{variance[c]} + epsilon);
    folded.scale[c] = static_cast<float>(scale);
    folded.shift[c] = static_cast<float>(beta[c] - mean[c] * scale);
  }
  return folded;
}

ConfigSpace batch_norm_space(const BatchNormDesc& desc) {
  desc.validate();
  return elementwise_space(ops::channel_planes(desc.tensor).length);
}

BatchNormLayouts batch_norm_layouts(const BatchNormDesc& desc) {
  desc.validate();
  return {desc.tensor.layout(), desc.tensor.layout()};
}

Kernel compile_batch_norm(const BatchNormDesc& desc, const ElementwiseSchedule& schedule) {
  desc.validate();
  validate_elementwise_schedule(schedule, "batch_norm");
  return Kernel(jit::cached_kernel(desc.str() + "|" + schedule.str(), [&] { return build(desc, schedule); }));
}

}  // namespace layoutopt::kernels
