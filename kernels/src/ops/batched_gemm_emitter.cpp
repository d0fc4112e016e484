#include "ops/batched_gemm_emitter.h"

#include "ceil_div.h"
#include "jit/control_flow.h"
#include "jit/epilogue_ir.h"
#include "jit/jit_engine.h"
#include "jit/vector_ops.h"
#include "layoutopt/graph/tensor_type.h"
#include "reference/broadcast_index.h"

namespace layoutopt::kernels::ops {

namespace {

using llvm::Value;

std::vector<int64_t> leading_axes(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end() - 2}; }

// First float of each output matrix's operand matrix in a tensor with leading axes `lead`
// (broadcast to the output's leading axes `out_lead`), `floats` floats per matrix.
std::vector<int64_t> matrix_offsets(const std::vector<int64_t>& lead, const std::vector<int64_t>& out_lead,
                                    int64_t matrices, int64_t floats) {
  std::vector<int64_t> offsets;
  for (int64_t matrix = 0; matrix < matrices; ++matrix)
    offsets.push_back(reference::broadcast_index(lead, out_lead, matrix) * floats);
  return offsets;
}

}  // namespace

BatchedGemmEmitter::BatchedGemmEmitter(const BatchedGemmShape& shape, const BatchedGemmTile& tile,
                                       const BatchedGemmOperands& operands, jit::KernelModule& module)
    : jit::IndexArithmetic(module.builder()),
      m_(shape.a_shape[shape.a_shape.size() - 2]),
      k_(shape.a_shape.back()),
      n_(shape.b_shape.back()),
      matrices_(graph::element_count(leading_axes(shape.out_shape))),
      tile_(tile),
      operands_(operands),
      module_(module),
      b_(module.builder()),
      row_tiles_(ceil_div(m_, tile.rows_bn)),
      column_blocks_(ceil_div(n_, tile.cols_bn)),
      full_(module, tile.rows_bn, 1, jit::vector_chunks(tile.cols_bn, jit::JitEngine::instance().host().vector_lanes)),
      tail_(module, tile.rows_bn, 1, jit::vector_chunks(tail_columns(), jit::JitEngine::instance().host().vector_lanes)) {
  const std::vector<int64_t> out_lead = leading_axes(shape.out_shape);
  a_offsets_ = module.constant_table(matrix_offsets(leading_axes(shape.a_shape), out_lead, matrices_, m_ * k_),
                                     "a_offsets");
  b_offsets_ = module.constant_table(matrix_offsets(leading_axes(shape.b_shape), out_lead, matrices_, k_ * n_),
                                     "b_offsets");
}

void BatchedGemmEmitter::emit() {
  jit::emit_loop(b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_item(item); }, "item");
}

int64_t BatchedGemmEmitter::tail_columns() const { return n_ - (ceil_div(n_, tile_.cols_bn) - 1) * tile_.cols_bn; }

Value* BatchedGemmEmitter::table_entry(Value* table, Value* index) {
  Value* address = b_.CreateGEP(b_.getInt64Ty(), table, index);
  return b_.CreateLoad(b_.getInt64Ty(), address);
}

// index = (matrix * row_tiles + row_tile) * column_blocks + column_block.
void BatchedGemmEmitter::emit_item(Value* index) {
  Value* column_block = b_.CreateURem(index, constant(column_blocks_));
  Value* rest = b_.CreateUDiv(index, constant(column_blocks_));
  Value* row_tile = b_.CreateURem(rest, constant(row_tiles_));
  Value* matrix = b_.CreateUDiv(rest, constant(row_tiles_));
  Value* a = operands_.a_is_weight ? module_.weight() : module_.input();
  Value* b = operands_.a_is_weight ? module_.input() : module_.weight();
  const TileOrigin origin{jit::element_address(b_, a, table_entry(a_offsets_, matrix)),
                          jit::element_address(b_, b, table_entry(b_offsets_, matrix)), mul(matrix, m_ * n_),
                          mul(row_tile, tile_.rows_bn), mul(column_block, tile_.cols_bn)};
  const auto rows = [&](const conv::AccumulatorTile& acc) {
    const int64_t tail_rows = m_ % tile_.rows_bn;
    if (tail_rows == 0) return emit_tile(origin, tile_.rows_bn, acc);
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(row_tile, constant(row_tiles_ - 1)), [&] { emit_tile(origin, tail_rows, acc); },
        [&] { emit_tile(origin, tile_.rows_bn, acc); });
  };
  if (tail_columns() == tile_.cols_bn) return rows(full_);
  jit::emit_if_else(
      b_, b_.CreateICmpEQ(column_block, constant(column_blocks_ - 1)), [&] { rows(tail_); }, [&] { rows(full_); });
}

// acc[r][chunk] = sum over k of a[first_row + r][k] * b[k][first_column + chunk columns].
void BatchedGemmEmitter::emit_tile(const TileOrigin& origin, int64_t rows, const conv::AccumulatorTile& acc) {
  const auto& chunks = acc.chunks();
  acc.clear(b_, rows, 1);
  jit::emit_loop(
      b_, 0, k_, 1,
      [&](Value* k) {
        Value* b_row = add(mul(k, n_), origin.first_column);
        std::vector<Value*> b_vectors;
        for (const jit::VectorChunk& chunk : chunks)
          b_vectors.push_back(jit::load_vector(b_, origin.b, add(b_row, chunk.offset), chunk.lanes));
        for (int64_t r = 0; r < rows; ++r) {
          Value* a_element = add(mul(add(origin.first_row, r), k_), k);
          for (size_t c = 0; c < chunks.size(); ++c)
            acc.add_product(b_, r, 0, c, jit::broadcast(b_, origin.a, a_element, chunks[c].lanes), b_vectors[c]);
        }
      },
      "k");
  store_tile(origin, rows, acc);
}

// The whole tile's epilogues at once (store_with_epilogues): row r's bias is bias[row].
void BatchedGemmEmitter::store_tile(const TileOrigin& origin, int64_t rows, const conv::AccumulatorTile& acc) {
  std::vector<Value*> values;
  std::vector<jit::EpilogueOperands> operands;
  for (int64_t r = 0; r < rows; ++r) {
    Value* row = add(origin.first_row, r);
    Value* out_row = add(add(origin.out, mul(row, n_)), origin.first_column);
    for (size_t c = 0; c < acc.chunks().size(); ++c) {
      const jit::VectorChunk& chunk = acc.chunks()[c];
      values.push_back(acc.load(b_, r, 0, c));
      operands.push_back({.bias = module_.bias(),
                          .bias_offset = row,
                          .residual = module_.residual(),
                          .output = jit::contiguous(add(out_row, chunk.offset), chunk.lanes),
                          .bias_splat = true});
    }
  }
  jit::store_with_epilogues(b_, operands_.epilogue, std::move(values), operands, module_.output());
}

}  // namespace layoutopt::kernels::ops
