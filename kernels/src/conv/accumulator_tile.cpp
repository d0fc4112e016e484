#include "conv/accumulator_tile.h"

namespace layoutopt::kernels::conv {

std::vector<jit::VectorChunk> tile_chunks(int64_t block, int64_t blocks, int64_t vector_lanes) {
  const std::vector<jit::VectorChunk> one_block = jit::vector_chunks(block, vector_lanes);
  std::vector<jit::VectorChunk> chunks;
  for (int64_t b = 0; b < blocks; ++b)
    for (const jit::VectorChunk& chunk : one_block) chunks.push_back({b * block + chunk.offset, chunk.lanes});
  return chunks;
}

AccumulatorTile::AccumulatorTile(jit::KernelModule& module, int64_t rows, int64_t columns,
                                 std::vector<jit::VectorChunk> chunks)
    : columns_(columns), chunks_(std::move(chunks)) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < columns; ++w)
      for (const jit::VectorChunk& chunk : chunks_)
        slots_.push_back(module.entry_slot(jit::float_vector_type(module.builder(), chunk.lanes), "acc"));
}

size_t AccumulatorTile::chunks_below(int64_t channels) const {
  size_t count = 0;
  while (count < chunks_.size() && chunks_[count].offset < channels) ++count;
  return count;
}

llvm::Value* AccumulatorTile::slot(int64_t row, int64_t column, size_t chunk) const {
  return slots_[static_cast<size_t>(row * columns_ + column) * chunks_.size() + chunk];
}

void AccumulatorTile::clear(llvm::IRBuilder<>& builder, int64_t rows, int64_t columns) const {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < columns; ++w)
      for (size_t c = 0; c < chunks_.size(); ++c)
        builder.CreateStore(jit::zero_vector(builder, chunks_[c].lanes), slot(r, w, c));
}

llvm::Value* AccumulatorTile::load(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk) const {
  return builder.CreateLoad(jit::float_vector_type(builder, chunks_[chunk].lanes), slot(row, column, chunk));
}

void AccumulatorTile::set(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk,
                          llvm::Value* value) const {
  builder.CreateStore(value, slot(row, column, chunk));
}

void AccumulatorTile::add_product(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk,
                                  llvm::Value* a, llvm::Value* b) const {
  set(builder, row, column, chunk, jit::fused_multiply_add(builder, a, b, load(builder, row, column, chunk)));
}

}  // namespace layoutopt::kernels::conv
