#pragma once
// BatchedGemmEmitter: out[..., M, N] = a[..., M, K] x b[..., K, N], row-major, the leading
// axes broadcast numpy style. Each reduction step loads a row of b as vectors along N and
// multiplies it by one broadcast element of a per tile row: a register tile of rows_bn rows
// by cols_bn columns (the last row tile and column block may be narrower). Work items are
// (matrix, row tile, column block), column blocks fastest, so consecutive items reuse the
// same rows of a and the same matrix of b from cache.
//
// Shared by batch_matmul (attention's products, plain stores) and gemm_conv2d (a 1x1 conv on
// NCHW activations: a = weights, b = the image's channels x pixels, with the conv's
// epilogue, one bias per row).

#include <cstdint>
#include <vector>

#include "conv/accumulator_tile.h"
#include "jit/index_arithmetic.h"
#include "jit/kernel_module.h"
#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::ops {

struct BatchedGemmShape {
  std::vector<int64_t> a_shape;  ///< [..., M, K]
  std::vector<int64_t> b_shape;  ///< [..., K, N]
  std::vector<int64_t> out_shape;
};

struct BatchedGemmTile {
  int64_t rows_bn = 1;
  int64_t cols_bn = 1;
};

/// Which KernelArgs pointers hold a and b, and what happens to each output vector.
struct BatchedGemmOperands {
  bool a_is_weight = false;  ///< a in KernelArgs::weight and b in input (a conv), else the reverse
  /// Applied before the store; bias[row] is splat over the row's vectors, a residual has
  /// the output's shape.
  Epilogue epilogue;
};

class BatchedGemmEmitter : private jit::IndexArithmetic {
 public:
  BatchedGemmEmitter(const BatchedGemmShape& shape, const BatchedGemmTile& tile, const BatchedGemmOperands& operands,
                     jit::KernelModule& module);

  [[nodiscard]] int64_t work_items() const { return matrices_ * row_tiles_ * column_blocks_; }
  void emit();

 private:
  struct TileOrigin {
    llvm::Value* a = nullptr;  // first float of the item's matrix of a
    llvm::Value* b = nullptr;
    llvm::Value* out = nullptr;  // offset of the item's output matrix (floats)
    llvm::Value* first_row = nullptr;
    llvm::Value* first_column = nullptr;
  };

  [[nodiscard]] int64_t tail_columns() const;
  llvm::Value* table_entry(llvm::Value* table, llvm::Value* index);
  void emit_item(llvm::Value* index);
  void emit_tile(const TileOrigin& origin, int64_t rows, const conv::AccumulatorTile& acc);
  void store_tile(const TileOrigin& origin, int64_t rows, const conv::AccumulatorTile& acc);

  int64_t m_, k_, n_, matrices_;
  BatchedGemmTile tile_;
  BatchedGemmOperands operands_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  int64_t row_tiles_;
  int64_t column_blocks_;
  conv::AccumulatorTile full_;  // a tile of cols_bn columns
  conv::AccumulatorTile tail_;  // the last column block's, narrower when cols_bn does not divide N
  llvm::Value* a_offsets_ = nullptr;
  llvm::Value* b_offsets_ = nullptr;
};

}  // namespace layoutopt::kernels::ops
