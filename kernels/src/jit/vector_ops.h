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

/// Lanes [first_lane, first_lane + lanes) of a vector, stored as consecutive floats at
/// element `offset`.
struct VectorPiece {
  int64_t first_lane = 0;
  int64_t lanes = 0;
  llvm::Value* offset = nullptr;
};
/// Where each lane of one vector lives in memory: one piece for a vector stored whole,
/// several when the stored layout's blocking splits its lanes (pieces in lane order,
/// covering every lane once).
using VectorPlacement = std::vector<VectorPiece>;

[[nodiscard]] VectorPlacement contiguous(llvm::Value* offset, int64_t lanes);
/// Loads the vector of `placement` (as many lanes as its pieces cover).
[[nodiscard]] llvm::Value* load_placed(llvm::IRBuilder<>& builder, llvm::Value* base, const VectorPlacement& placement);
void store_placed(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Value* base, const VectorPlacement& placement);
/// Loads the scalar base[offset] and splats it over `lanes` lanes.
[[nodiscard]] llvm::Value* broadcast(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset,
                                     int64_t lanes);
[[nodiscard]] llvm::Value* zero_vector(llvm::IRBuilder<>& builder, int64_t lanes);
/// a * b + c, fused (llvm.fma).
[[nodiscard]] llvm::Value* fused_multiply_add(llvm::IRBuilder<>& builder, llvm::Value* a, llvm::Value* b,
                                              llvm::Value* c);

}  // namespace layoutopt::kernels::jit
