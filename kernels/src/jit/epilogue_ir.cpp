#include "jit/epilogue_ir.h"

#include "jit/math_ir.h"
#include "jit/vector_ops.h"

namespace layoutopt::kernels::jit {

namespace {

// PyTorch's hardswish / hardsigmoid slope.
constexpr float kSixth = 1.0F / 6.0F;

int64_t lanes_of(llvm::Value* value) {
  return static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(value->getType())->getNumElements());
}

// compare + select rather than llvm.maxnum: it lowers to a single vmaxps (maxnum adds NaN
// fix-up code), and a NaN accumulator staying NaN or becoming 0 are both acceptable here.
llvm::Value* max_with(llvm::IRBuilder<>& builder, llvm::Value* value, float bound) {
  llvm::Value* limit = llvm::ConstantFP::get(value->getType(), bound);
  return builder.CreateSelect(builder.CreateFCmpOGT(value, limit), value, limit);
}

llvm::Value* min_with(llvm::IRBuilder<>& builder, llvm::Value* value, float bound) {
  llvm::Value* limit = llvm::ConstantFP::get(value->getType(), bound);
  return builder.CreateSelect(builder.CreateFCmpOLT(value, limit), value, limit);
}

}  // namespace

llvm::Value* emit_hard_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* value, float alpha, float beta) {
  llvm::Value* line = builder.CreateFAdd(builder.CreateFMul(value, llvm::ConstantFP::get(value->getType(), alpha)),
                                         llvm::ConstantFP::get(value->getType(), beta));
  return min_with(builder, max_with(builder, line, 0.0F), 1.0F);
}

llvm::Value* emit_activation(llvm::IRBuilder<>& builder, Activation activation, llvm::Value* value) {
  switch (activation) {
    case Activation::None: return value;
    case Activation::Relu: return max_with(builder, value, 0.0F);
    case Activation::Relu6: return min_with(builder, max_with(builder, value, 0.0F), 6.0F);
    case Activation::HardSwish: return builder.CreateFMul(value, emit_hard_sigmoid(builder, value, kSixth, 0.5F));
    case Activation::HardSigmoid: return emit_hard_sigmoid(builder, value, kSixth, 0.5F);
    case Activation::Silu: return builder.CreateFMul(value, emit_sigmoid(builder, value));
    case Activation::Sigmoid: return emit_sigmoid(builder, value);
    case Activation::Gelu: return emit_gelu(builder, value);
    case Activation::GeluTanh: return emit_gelu_tanh(builder, value);
  }
  return value;
}

llvm::Value* emit_epilogue(llvm::IRBuilder<>& builder, const Epilogue& epilogue, llvm::Value* value,
                           const EpilogueOperands& operands) {
  const int64_t lanes = lanes_of(value);
  if (epilogue.bias)
    value = builder.CreateFAdd(value, load_vector(builder, operands.bias, operands.bias_offset, lanes));
  value = emit_activation(builder, epilogue.activation, value);
  if (epilogue.residual) {
    value = builder.CreateFAdd(value, load_placed(builder, operands.residual, operands.output));
    value = emit_activation(builder, epilogue.post_residual_activation, value);
  }
  return value;
}

}  // namespace layoutopt::kernels::jit
