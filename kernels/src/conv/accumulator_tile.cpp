#include "conv/accumulator_tile.h"

#include <llvm/Analysis/VectorUtils.h>

#include <numeric>

namespace layoutopt::kernels::conv {

std::vector<jit::VectorChunk> tile_chunks(int64_t block, int64_t blocks, int64_t vector_lanes) {
  const std::vector<jit::VectorChunk> one_block = jit::vector_chunks(block, vector_lanes);
  std::vector<jit::VectorChunk> chunks;
  for (int64_t b = 0; b < blocks; ++b)
    for (const jit::VectorChunk& chunk : one_block) chunks.push_back({b * block + chunk.offset, chunk.lanes});
  return chunks;
}

AccumulatorTile::AccumulatorTile(jit::KernelModule& module, int64_t rows, int64_t columns,
                                 std::vector<jit::VectorChunk> chunks, const HostInfo& host)
    : columns_(columns), chunks_(std::move(chunks)) {
  for (const jit::VectorChunk& chunk : chunks_)
    register_lanes_.push_back(accumulator_register_lanes(chunk.lanes, host));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < columns; ++w)
      for (const int64_t lanes : register_lanes_)
        slots_.push_back(module.entry_slot(jit::float_vector_type(module.builder(), lanes), "acc"));
}

size_t AccumulatorTile::chunks_below(int64_t channels) const {
  size_t count = 0;
  while (count < chunks_.size() && chunks_[count].offset < channels) ++count;
  return count;
}

llvm::Value* AccumulatorTile::slot(int64_t row, int64_t column, size_t chunk) const {
  return slots_[static_cast<size_t>(row * columns_ + column) * chunks_.size() + chunk];
}

llvm::Value* AccumulatorTile::widened(llvm::IRBuilder<>& builder, size_t chunk, llvm::Value* value) const {
  const int64_t lanes = chunks_[chunk].lanes;
  const int64_t wide = register_lanes_[chunk];
  if (wide == lanes) return value;
  if (llvm::Value* scalar = llvm::getSplatValue(value)) return builder.CreateVectorSplat(static_cast<unsigned>(wide), scalar);
  // Lanes [0, lanes) from `value`, the rest from the zero vector's first lane.
  std::vector<int> mask(static_cast<size_t>(wide), static_cast<int>(lanes));
  std::iota(mask.begin(), mask.begin() + lanes, 0);
  return builder.CreateShuffleVector(value, jit::zero_vector(builder, lanes), mask);
}

void AccumulatorTile::clear(llvm::IRBuilder<>& builder, int64_t rows, int64_t columns) const {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < columns; ++w)
      for (size_t c = 0; c < chunks_.size(); ++c)
        builder.CreateStore(jit::zero_vector(builder, register_lanes_[c]), slot(r, w, c));
}

llvm::Value* AccumulatorTile::load(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk) const {
  llvm::Value* whole = load_register(builder, row, column, chunk);
  const int64_t lanes = chunks_[chunk].lanes;
  if (register_lanes_[chunk] == lanes) return whole;
  std::vector<int> low(static_cast<size_t>(lanes));
  std::iota(low.begin(), low.end(), 0);
  return builder.CreateShuffleVector(whole, low);
}

llvm::Value* AccumulatorTile::load_register(llvm::IRBuilder<>& builder, int64_t row, int64_t column,
                                            size_t chunk) const {
  return builder.CreateLoad(jit::float_vector_type(builder, register_lanes_[chunk]), slot(row, column, chunk));
}

void AccumulatorTile::set(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk,
                          llvm::Value* value) const {
  builder.CreateStore(widened(builder, chunk, value), slot(row, column, chunk));
}

void AccumulatorTile::add_product(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk,
                                  llvm::Value* a, llvm::Value* b) const {
  llvm::Value* sum = jit::fused_multiply_add(builder, widened(builder, chunk, a), widened(builder, chunk, b),
                                             load_register(builder, row, column, chunk));
  builder.CreateStore(sum, slot(row, column, chunk));
}

}  // namespace layoutopt::kernels::conv
