#include "layoutopt/kernels/activation.h"

#include "jit/epilogue_ir.h"
#include "jit/kernel_cache.h"
#include "jit/math_ir.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

namespace {

llvm::Value* sigmoid(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Value* one = llvm::ConstantFP::get(x->getType(), 1.0);
  return builder.CreateFDiv(one, builder.CreateFAdd(one, jit::emit_exp(builder, builder.CreateFNeg(x))));
}

// relu and relu6 are the epilogue's activations: same code as when fused into conv2d.
llvm::Value* apply(llvm::IRBuilder<>& builder, ActivationOp op, llvm::Value* x) {
  switch (op) {
    case ActivationOp::relu:
      return jit::emit_activation(builder, Activation::Relu, x);
    case ActivationOp::relu6:
      return jit::emit_activation(builder, Activation::Relu6, x);
    case ActivationOp::sigmoid:
      return sigmoid(builder, x);
  }
  return x;
}

CompiledFunction build(const ActivationDesc& desc, const ElementwiseSchedule& schedule) {
  jit::KernelModule module(to_string(desc.op));
  const ops::StreamShape shape = ops::whole_tensor(desc.tensor);
  ops::emit_stream(module, shape, schedule, {}, [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
    return apply(builder, desc.op, site.input);
  });
  return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {});
}

}  // namespace

const char* to_string(ActivationOp op) {
  switch (op) {
    case ActivationOp::relu:
      return "relu";
    case ActivationOp::relu6:
      return "relu6";
    case ActivationOp::sigmoid:
      return "sigmoid";
  }
  return "?";
}

void ActivationDesc::validate() const { tensor.validate(to_string(op), str()); }

std::string ActivationDesc::str() const { return std::string(to_string(op)) + "_" + tensor.str(); }

ConfigSpace activation_space(const ActivationDesc& desc) {
  desc.validate();
  return elementwise_space(desc.tensor.elements());
}

ActivationLayouts activation_layouts(const ActivationDesc& desc) {
  desc.validate();
  return {desc.tensor.layout(), desc.tensor.layout()};
}

Kernel compile_activation(const ActivationDesc& desc, const ElementwiseSchedule& schedule) {
  desc.validate();
  validate_elementwise_schedule(schedule, to_string(desc.op));
  // Keyed by element count, not block: the same code serves every layout of the tensor.
  const std::string key = std::string("activation|") + to_string(desc.op) + "|" +
                          std::to_string(desc.tensor.elements()) + "|" + schedule.str();
  return Kernel(jit::cached_kernel(key, [&] { return build(desc, schedule); }));
}

}  // namespace layoutopt::kernels
