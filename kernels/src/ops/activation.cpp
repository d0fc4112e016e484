#include "layoutopt/kernels/activation.h"

#include <charconv>
#include <cmath>
#include <iterator>

#include "jit/epilogue_ir.h"
#include "jit/kernel_cache.h"
#include "jit/math_ir.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

namespace {

llvm::Value* constant(llvm::Value* like, float value) { return llvm::ConstantFP::get(like->getType(), value); }

llvm::Value* leaky_relu(llvm::IRBuilder<>& builder, llvm::Value* x, float alpha) {
  llvm::Value* negative = builder.CreateFCmpOLT(x, constant(x, 0.0F));
  return builder.CreateSelect(negative, builder.CreateFMul(x, constant(x, alpha)), x);
}

// relu, relu6, sigmoid, hard swish, silu and gelu are epilogue activations: the same code as when fused into conv2d.
llvm::Value* apply(llvm::IRBuilder<>& builder, const ActivationDesc& desc, llvm::Value* x) {
  switch (desc.op) {
    case ActivationOp::relu:
      return jit::emit_activation(builder, Activation::Relu, x);
    case ActivationOp::relu6:
      return jit::emit_activation(builder, Activation::Relu6, x);
    case ActivationOp::sigmoid:
      return jit::emit_activation(builder, Activation::Sigmoid, x);
    case ActivationOp::tanh:
      return jit::emit_tanh(builder, x);
    case ActivationOp::hard_sigmoid:
      return jit::emit_hard_sigmoid(builder, x, desc.alpha, desc.beta);
    case ActivationOp::hard_swish:
      return jit::emit_activation(builder, Activation::HardSwish, x);
    case ActivationOp::silu:
      return jit::emit_activation(builder, Activation::Silu, x);
    case ActivationOp::leaky_relu:
      return leaky_relu(builder, x, desc.alpha);
    case ActivationOp::gelu:
      return jit::emit_activation(builder, Activation::Gelu, x);
    case ActivationOp::gelu_tanh:
      return jit::emit_activation(builder, Activation::GeluTanh, x);
  }
  return x;
}

bool has_parameters(ActivationOp op) { return op == ActivationOp::hard_sigmoid || op == ActivationOp::leaky_relu; }

// Shortest text that reads back as the same float: kernels of different parameters must not
// share a cache key.
std::string exact_text(float value) {
  char text[32];
  return {text, std::to_chars(std::begin(text), std::end(text), value).ptr};
}

/// "leaky_relu0.1", "hard_sigmoid0.2_0.5": the op with the parameters it reads.
std::string function_text(const ActivationDesc& desc) {
  std::string text = to_string(desc.op);
  if (desc.op == ActivationOp::leaky_relu) text += exact_text(desc.alpha);
  if (desc.op == ActivationOp::hard_sigmoid) text += exact_text(desc.alpha) + "_" + exact_text(desc.beta);
  return text;
}

CompiledFunction build(const ActivationDesc& desc, const ElementwiseSchedule& schedule) {
  jit::KernelModule module(to_string(desc.op));
  const ops::StreamShape shape = ops::whole_tensor(desc.tensor);
  ops::emit_stream(module, shape, schedule, {}, [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
    return apply(builder, desc, site.input);
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
    case ActivationOp::tanh:
      return "tanh";
    case ActivationOp::hard_sigmoid:
      return "hard_sigmoid";
    case ActivationOp::hard_swish:
      return "hard_swish";
    case ActivationOp::silu:
      return "silu";
    case ActivationOp::leaky_relu:
      return "leaky_relu";
    case ActivationOp::gelu:
      return "gelu";
    case ActivationOp::gelu_tanh:
      return "gelu_tanh";
  }
  return "?";
}

void ActivationDesc::validate() const {
  tensor.validate(to_string(op), str());
  if (has_parameters(op) && !(std::isfinite(alpha) && std::isfinite(beta)))
    throw KernelError("invalid " + std::string(to_string(op)) + " desc " + str() + ": alpha and beta must be finite");
}

std::string ActivationDesc::str() const { return function_text(*this) + "_" + tensor.str(); }

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
  const std::string key = "activation|" + function_text(desc) + "|" + std::to_string(desc.tensor.elements()) + "|" +
                          schedule.str();
  return Kernel(jit::cached_kernel(key, [&] { return build(desc, schedule); }));
}

}  // namespace layoutopt::kernels
