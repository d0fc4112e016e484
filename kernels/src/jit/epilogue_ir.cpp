#include "jit/epilogue_ir.h"

#include <bit>
#include <cassert>
#include <numeric>

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

namespace {

// One vector holding `values` (a power-of-two count of one type) one after another.
llvm::Value* concatenate(llvm::IRBuilder<>& builder, std::span<llvm::Value* const> values) {
  if (values.size() == 1) return values[0];
  llvm::Value* low = concatenate(builder, values.first(values.size() / 2));
  llvm::Value* high = concatenate(builder, values.subspan(values.size() / 2));
  std::vector<int> mask(static_cast<size_t>(2 * lanes_of(low)));
  std::iota(mask.begin(), mask.end(), 0);
  return builder.CreateShuffleVector(low, high, mask);
}

// `wide`'s lanes [first, first + lanes).
llvm::Value* slice(llvm::IRBuilder<>& builder, llvm::Value* wide, int64_t first, int64_t lanes) {
  std::vector<int> mask(static_cast<size_t>(lanes));
  std::iota(mask.begin(), mask.end(), static_cast<int>(first));
  return builder.CreateShuffleVector(wide, mask);
}

// How many of `values` (from the front) form the next batch: a power of two, at most
// kActivationBatch, all of one type (a wide vector of a power-of-two width splits into whole
// registers).
size_t next_batch(std::span<llvm::Value* const> values) {
  size_t same = 1;
  while (same < values.size() && same < kActivationBatch && values[same]->getType() == values[0]->getType()) ++same;
  return std::bit_floor(same);
}

}  // namespace

void emit_activations(llvm::IRBuilder<>& builder, Activation activation, std::span<llvm::Value*> values) {
  if (activation == Activation::None) return;
  for (size_t first = 0; first < values.size();) {
    const auto batch = values.subspan(first, next_batch(values.subspan(first)));
    llvm::Value* wide = emit_activation(builder, activation, concatenate(builder, batch));
    const int64_t lanes = lanes_of(batch[0]);
    for (size_t i = 0; i < batch.size(); ++i)
      batch[i] = batch.size() == 1 ? wide : slice(builder, wide, static_cast<int64_t>(i) * lanes, lanes);
    first += batch.size();
  }
}

void store_with_epilogues(llvm::IRBuilder<>& builder, const Epilogue& epilogue, std::vector<llvm::Value*> values,
                          std::span<const EpilogueOperands> operands, llvm::Value* output) {
  assert(values.size() == operands.size());
  if (epilogue.bias)
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = builder.CreateFAdd(values[i], operands[i].bias_splat
                                                    ? broadcast(builder, operands[i].bias, operands[i].bias_offset,
                                                                lanes_of(values[i]))
                                                    : load_vector(builder, operands[i].bias, operands[i].bias_offset,
                                                                  lanes_of(values[i])));
  emit_activations(builder, epilogue.activation, values);
  if (epilogue.residual) {
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = builder.CreateFAdd(values[i], load_placed(builder, operands[i].residual, operands[i].output));
    emit_activations(builder, epilogue.post_residual_activation, values);
  }
  for (size_t i = 0; i < values.size(); ++i) store_placed(builder, values[i], output, operands[i].output);
}

}  // namespace layoutopt::kernels::jit
