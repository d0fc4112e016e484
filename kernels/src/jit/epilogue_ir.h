#pragma once
// Emission of the fused epilogue (bias, activation, residual add, post-residual activation)
// on one accumulator vector, shared by every operator that produces conv-like outputs.

#include <llvm/IR/IRBuilder.h>

#include "jit/vector_ops.h"
#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::jit {

/// Where the epilogue operands of one output vector live (float element offsets).
struct EpilogueOperands {
  llvm::Value* bias = nullptr;           ///< bias base pointer
  llvm::Value* bias_offset = nullptr;    ///< first output channel of the vector
  llvm::Value* residual = nullptr;       ///< residual base pointer (output layout)
  VectorPlacement output;                ///< where the vector lives in output / residual
};

/// max(0, min(1, alpha * value + beta)); the epilogue's HardSigmoid is alpha 1/6, beta 1/2.
[[nodiscard]] llvm::Value* emit_hard_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* value, float alpha, float beta);

[[nodiscard]] llvm::Value* emit_activation(llvm::IRBuilder<>& builder, Activation activation, llvm::Value* value);

/// Returns the value to store for accumulator `value` under `epilogue`.
[[nodiscard]] llvm::Value* emit_epilogue(llvm::IRBuilder<>& builder, const Epilogue& epilogue, llvm::Value* value,
                                         const EpilogueOperands& operands);

}  // namespace layoutopt::kernels::jit
