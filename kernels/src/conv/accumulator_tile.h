#pragma once
// AccumulatorTile: the register tile of a conv microkernel, rows x columns x vector chunks
// of accumulators. Each accumulator is an entry-block stack slot that mem2reg promotes to a
// register, so emitters simply load, FMA and store by (row, column, chunk). A chunk narrower
// than the host's vector may compute in a whole vector (accumulator_register_lanes): its
// extra lanes hold values no store ever writes.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

#include "jit/kernel_module.h"
#include "jit/vector_ops.h"
#include "conv/accumulator_lanes.h"
#include "layoutopt/kernels/host.h"

namespace layoutopt::kernels::conv {

/// Widest register tile (output columns) the conv2d spaces offer, direct and Winograd's
/// batched product alike: beyond ~28 accumulators AVX-512 spills anyway.
inline constexpr int64_t kMaxTileWidth = 32;

/// The vector chunks of `blocks` consecutive output blocks of `block` channels: each block's
/// vector_chunks, offsets counted from the first block's first channel, so a chunk's block
/// is offset / block and its lanes start at offset % block within it.
[[nodiscard]] std::vector<jit::VectorChunk> tile_chunks(int64_t block, int64_t blocks, int64_t vector_lanes);

class AccumulatorTile {
 public:
  /// Accumulators of `chunks`, each in a register of accumulator_register_lanes(chunk.lanes,
  /// host) lanes.
  AccumulatorTile(jit::KernelModule& module, int64_t rows, int64_t columns, std::vector<jit::VectorChunk> chunks,
                  const HostInfo& host = host_info());

  [[nodiscard]] const std::vector<jit::VectorChunk>& chunks() const { return chunks_; }
  /// How many leading chunks hold the tile's first `channels` channels (a narrower tile of
  /// tile_chunks' blocks computes only those).
  [[nodiscard]] size_t chunks_below(int64_t channels) const;
  /// Sets the first `rows` x `columns` accumulators to zero.
  void clear(llvm::IRBuilder<>& builder, int64_t rows, int64_t columns) const;
  /// acc(row, column, chunk) += a * b, for a and b of the chunk's lanes.
  void add_product(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk, llvm::Value* a,
                   llvm::Value* b) const;
  /// The accumulator's chunk lanes.
  [[nodiscard]] llvm::Value* load(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk) const;
  /// Sets the accumulator's chunk lanes to `value` (lanes beyond them hold nothing stored).
  void set(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk, llvm::Value* value) const;

 private:
  [[nodiscard]] llvm::Value* slot(int64_t row, int64_t column, size_t chunk) const;
  /// The whole register, extra lanes included.
  [[nodiscard]] llvm::Value* load_register(llvm::IRBuilder<>& builder, int64_t row, int64_t column, size_t chunk) const;
  /// `value` (of the chunk's lanes) as a vector of its register's lanes: a splat splatted
  /// wider (so chunks share one broadcast), anything else followed by zeros.
  [[nodiscard]] llvm::Value* widened(llvm::IRBuilder<>& builder, size_t chunk, llvm::Value* value) const;

  int64_t columns_;
  std::vector<jit::VectorChunk> chunks_;
  std::vector<int64_t> register_lanes_;  // per chunk
  std::vector<llvm::Value*> slots_;  // row-major (row, column, chunk)
};

}  // namespace layoutopt::kernels::conv
