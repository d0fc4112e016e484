#pragma once
// Emission of the fused epilogue (bias, activation, residual add, post-residual activation)
// on a tile's accumulator vectors, shared by every operator that produces conv-like outputs.

#include <llvm/IR/IRBuilder.h>

#include <span>
#include <vector>

#include "jit/vector_ops.h"
#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::jit {

/// Where the epilogue operands of one output vector live (float element offsets).
struct EpilogueOperands {
  llvm::Value* bias = nullptr;           ///< bias base pointer
  llvm::Value* bias_offset = nullptr;    ///< first output channel of the vector
  llvm::Value* residual = nullptr;       ///< residual base pointer (output layout)
  VectorPlacement output;                ///< where the vector lives in output / residual
  bool bias_splat = false;               ///< the vector runs along one channel's pixels: its bias is splat
};

/// max(0, min(1, alpha * value + beta)); the epilogue's HardSigmoid is alpha 1/6, beta 1/2.
[[nodiscard]] llvm::Value* emit_hard_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* value, float alpha, float beta);

[[nodiscard]] llvm::Value* emit_activation(llvm::IRBuilder<>& builder, Activation activation, llvm::Value* value);

/// Vectors whose activations are emitted as one batch: 2 to 8 ran alike, 0.87-0.92x one at
/// a time on depthwise tiles with SiLU (docs/results/kernels.md).
inline constexpr size_t kActivationBatch = 4;

/// Applies `activation` to each of `values` in place, emitted in batches of up to
/// kActivationBatch vectors as one wide vector each: the backend splits every wide operation
/// into one instruction per register, so the batch's dependent chains (an exp and a
/// reciprocal in SiLU) interleave instruction by instruction instead of running one after
/// another, which out-of-order windows overlap only in part.
void emit_activations(llvm::IRBuilder<>& builder, Activation activation, std::span<llvm::Value*> values);

/// Stores the accumulators `values` under `epilogue` into `output`, one per operands entry:
/// every epilogue first, then the stores, so that no store stands between the epilogues'
/// chains and their activations run in batches (emit_activations).
void store_with_epilogues(llvm::IRBuilder<>& builder, const Epilogue& epilogue, std::vector<llvm::Value*> values,
                          std::span<const EpilogueOperands> operands, llvm::Value* output);

}  // namespace layoutopt::kernels::jit
