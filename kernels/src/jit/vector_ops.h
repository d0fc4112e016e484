#pragma once
// Vector building blocks for fp32 kernels: addressing in float elements, vector loads and
// stores, broadcasts, FMA, and splitting a channel block into host-width vector chunks.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

namespace layoutopt::kernels::jit {

/// One vector of a channel block: lanes [offset, offset + lanes).
struct VectorChunk {
  int64_t offset = 0;
  int64_t lanes = 0;
};

/// Splits a block of `block` floats into chunks of `vector_lanes` lanes plus one narrower
/// remainder chunk (e.g. 24 with 16 lanes -> {0,16}, {16,8}); any block size is supported.
[[nodiscard]] std::vector<VectorChunk> vector_chunks(int64_t block, int64_t vector_lanes);

[[nodiscard]] llvm::VectorType* float_vector_type(llvm::IRBuilder<>& builder, int64_t lanes);

/// Address of base[offset] for a float* base and an i64 element offset.
[[nodiscard]] llvm::Value* element_address(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset);

/// Loads `lanes` consecutive floats from base[offset] (no alignment assumed).
[[nodiscard]] llvm::Value* load_vector(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset,
                                       int64_t lanes);
void store_vector(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Value* base, llvm::Value* offset);
/// Loads the scalar base[offset] and splats it over `lanes` lanes.
[[nodiscard]] llvm::Value* broadcast(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset,
                                     int64_t lanes);
[[nodiscard]] llvm::Value* zero_vector(llvm::IRBuilder<>& builder, int64_t lanes);
/// a * b + c, fused (llvm.fma).
[[nodiscard]] llvm::Value* fused_multiply_add(llvm::IRBuilder<>& builder, llvm::Value* a, llvm::Value* b,
                                              llvm::Value* c);

}  // namespace layoutopt::kernels::jit
