#include "jit/vector_ops.h"

#include <algorithm>

namespace layoutopt::kernels::jit {

std::vector<VectorChunk> vector_chunks(int64_t block, int64_t vector_lanes) {
  std::vector<VectorChunk> chunks;
  for (int64_t offset = 0; offset < block; offset += vector_lanes)
    chunks.push_back({offset, std::min(vector_lanes, block - offset)});
  return chunks;
}

llvm::VectorType* float_vector_type(llvm::IRBuilder<>& builder, int64_t lanes) {
  return llvm::FixedVectorType::get(builder.getFloatTy(), static_cast<unsigned>(lanes));
}

llvm::Value* element_address(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset) {
  return builder.CreateInBoundsGEP(builder.getFloatTy(), base, offset);
}

llvm::Value* load_vector(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset, int64_t lanes) {
  return builder.CreateAlignedLoad(float_vector_type(builder, lanes), element_address(builder, base, offset),
                                   llvm::Align(4));
}

void store_vector(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Value* base, llvm::Value* offset) {
  builder.CreateAlignedStore(value, element_address(builder, base, offset), llvm::Align(4));
}

VectorPlacement contiguous(llvm::Value* offset, int64_t lanes) { return {{0, lanes, offset}}; }

namespace {

int64_t lanes_covered(const VectorPlacement& placement) {
  int64_t lanes = 0;
  for (const VectorPiece& piece : placement) lanes += piece.lanes;
  return lanes;
}

// Shuffle mask selecting `count` lanes from `first` (poison lanes are -1).
std::vector<int> lane_range(int64_t first, int64_t count) {
  std::vector<int> mask;
  for (int64_t i = 0; i < count; ++i) mask.push_back(static_cast<int>(first + i));
  return mask;
}

}  // namespace

llvm::Value* load_placed(llvm::IRBuilder<>& builder, llvm::Value* base, const VectorPlacement& placement) {
  const int64_t lanes = lanes_covered(placement);
  if (placement.size() == 1) return load_vector(builder, base, placement.front().offset, lanes);
  llvm::Value* result = llvm::PoisonValue::get(float_vector_type(builder, lanes));
  for (const VectorPiece& piece : placement) {
    llvm::Value* part = load_vector(builder, base, piece.offset, piece.lanes);
    // Widen the piece to the full width, then take its lanes into place.
    std::vector<int> widen = lane_range(0, piece.lanes);
    widen.resize(static_cast<size_t>(lanes), -1);
    llvm::Value* wide = builder.CreateShuffleVector(part, widen);
    std::vector<int> merge = lane_range(0, lanes);
    for (int64_t i = 0; i < piece.lanes; ++i) merge[static_cast<size_t>(piece.first_lane + i)] = static_cast<int>(lanes + i);
    result = builder.CreateShuffleVector(result, wide, merge);
  }
  return result;
}

void store_placed(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Value* base, const VectorPlacement& placement) {
  if (placement.size() == 1) {
    store_vector(builder, value, base, placement.front().offset);
    return;
  }
  for (const VectorPiece& piece : placement)
    store_vector(builder, builder.CreateShuffleVector(value, lane_range(piece.first_lane, piece.lanes)), base,
                 piece.offset);
}

llvm::Value* broadcast(llvm::IRBuilder<>& builder, llvm::Value* base, llvm::Value* offset, int64_t lanes) {
  llvm::Value* scalar =
      builder.CreateAlignedLoad(builder.getFloatTy(), element_address(builder, base, offset), llvm::Align(4));
  return builder.CreateVectorSplat(static_cast<unsigned>(lanes), scalar);
}

llvm::Value* zero_vector(llvm::IRBuilder<>& builder, int64_t lanes) {
  return llvm::Constant::getNullValue(float_vector_type(builder, lanes));
}

llvm::Value* fused_multiply_add(llvm::IRBuilder<>& builder, llvm::Value* a, llvm::Value* b, llvm::Value* c) {
  return builder.CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, b, c});
}

}  // namespace layoutopt::kernels::jit
