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
