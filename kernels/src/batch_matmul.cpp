#include "layoutopt/kernels/batch_matmul.h"

#include <algorithm>

#include "ceil_div.h"
#include "conv/accumulator_tile.h"
#include "jit/control_flow.h"
#include "jit/index_arithmetic.h"
#include "jit/jit_engine.h"
#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "ops/compile_operator.h"
#include "reference/broadcast_index.h"

namespace layoutopt::kernels {

namespace {

using llvm::Value;

std::vector<int64_t> leading_axes(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end() - 2}; }

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text;
  for (const int64_t extent : shape) text += (text.empty() ? "" : "x") + std::to_string(extent);
  return text;
}

// First float of each output matrix's operand matrix in a tensor with leading axes `lead`
// (broadcast to the output's leading axes `out_lead`), `floats` floats per matrix.
std::vector<int64_t> matrix_offsets(const std::vector<int64_t>& lead, const std::vector<int64_t>& out_lead,
                                    int64_t matrices, int64_t floats) {
  std::vector<int64_t> offsets;
  for (int64_t matrix = 0; matrix < matrices; ++matrix)
    offsets.push_back(reference::broadcast_index(lead, out_lead, matrix) * floats);
  return offsets;
}

// Pointers of one work item's matrices and the corner of its tile.
struct TileOrigin {
  Value* a = nullptr;  // first float of the item's matrix of a
  Value* b = nullptr;
  Value* out = nullptr;
  Value* first_row = nullptr;
  Value* first_column = nullptr;
};

class BatchMatMulEmitter : private jit::IndexArithmetic {
 public:
  BatchMatMulEmitter(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule, jit::KernelModule& module)
      : jit::IndexArithmetic(module.builder()),
        d_(desc),
        s_(schedule),
        module_(module),
        b_(module.builder()),
        lanes_(jit::JitEngine::instance().host().vector_lanes),
        row_tiles_(ceil_div(desc.m(), schedule.rows_bn)),
        column_blocks_(ceil_div(desc.n(), schedule.cols_bn)),
        full_(module, schedule.rows_bn, 1, jit::vector_chunks(schedule.cols_bn, lanes_)),
        tail_(module, schedule.rows_bn, 1, jit::vector_chunks(tail_columns(), lanes_)) {
    const std::vector<int64_t> out_lead = leading_axes(desc.out_shape());
    a_offsets_ = module.constant_table(
        matrix_offsets(leading_axes(desc.a_shape), out_lead, desc.matrices(), desc.m() * desc.k()), "a_offsets");
    b_offsets_ = module.constant_table(
        matrix_offsets(leading_axes(desc.b_shape), out_lead, desc.matrices(), desc.k() * desc.n()), "b_offsets");
  }

  [[nodiscard]] int64_t work_items() const { return d_.matrices() * row_tiles_ * column_blocks_; }

  void emit() {
    jit::emit_loop(b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_item(item); }, "item");
  }

 private:
  // Columns of the last column block (cols_bn when it is full).
  [[nodiscard]] int64_t tail_columns() const { return d_.n() - (ceil_div(d_.n(), s_.cols_bn) - 1) * s_.cols_bn; }

  Value* table_entry(Value* table, Value* index) {
    Value* address = b_.CreateGEP(b_.getInt64Ty(), table, index);
    return b_.CreateLoad(b_.getInt64Ty(), address);
  }

  // index = (matrix * row_tiles + row_tile) * column_blocks + column_block.
  void emit_item(Value* index) {
    Value* column_block = b_.CreateURem(index, constant(column_blocks_));
    Value* rest = b_.CreateUDiv(index, constant(column_blocks_));
    Value* row_tile = b_.CreateURem(rest, constant(row_tiles_));
    Value* matrix = b_.CreateUDiv(rest, constant(row_tiles_));
    const TileOrigin origin{jit::element_address(b_, module_.input(), table_entry(a_offsets_, matrix)),
                            jit::element_address(b_, module_.weight(), table_entry(b_offsets_, matrix)),
                            jit::element_address(b_, module_.output(), mul(matrix, d_.m() * d_.n())),
                            mul(row_tile, s_.rows_bn), mul(column_block, s_.cols_bn)};
    const auto rows = [&](const conv::AccumulatorTile& acc) {
      const int64_t tail_rows = d_.m() % s_.rows_bn;
      if (tail_rows == 0) return emit_tile(origin, s_.rows_bn, acc);
      jit::emit_if_else(
          b_, b_.CreateICmpEQ(row_tile, constant(row_tiles_ - 1)), [&] { emit_tile(origin, tail_rows, acc); },
          [&] { emit_tile(origin, s_.rows_bn, acc); });
    };
    if (tail_columns() == s_.cols_bn) return rows(full_);
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(column_block, constant(column_blocks_ - 1)), [&] { rows(tail_); }, [&] { rows(full_); });
  }

  // acc[r][chunk] = sum over k of a[first_row + r][k] * b[k][first_column + chunk columns].
  void emit_tile(const TileOrigin& origin, int64_t rows, const conv::AccumulatorTile& acc) {
    const auto& chunks = acc.chunks();
    acc.clear(b_, rows, 1);
    jit::emit_loop(
        b_, 0, d_.k(), 1,
        [&](Value* k) {
          Value* b_row = add(mul(k, d_.n()), origin.first_column);
          std::vector<Value*> b_vectors;
          for (const jit::VectorChunk& chunk : chunks)
            b_vectors.push_back(jit::load_vector(b_, origin.b, add(b_row, chunk.offset), chunk.lanes));
          for (int64_t r = 0; r < rows; ++r) {
            Value* a_element = add(mul(add(origin.first_row, r), d_.k()), k);
            for (size_t c = 0; c < chunks.size(); ++c)
              acc.add_product(b_, r, 0, c, jit::broadcast(b_, origin.a, a_element, chunks[c].lanes), b_vectors[c]);
          }
        },
        "k");
    for (int64_t r = 0; r < rows; ++r) {
      Value* out_row = add(mul(add(origin.first_row, r), d_.n()), origin.first_column);
      for (size_t c = 0; c < chunks.size(); ++c)
        jit::store_vector(b_, acc.load(b_, r, 0, c), origin.out, add(out_row, chunks[c].offset));
    }
  }

  const BatchMatMulDesc& d_;
  const BatchMatMulSchedule& s_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  int64_t lanes_;
  int64_t row_tiles_;
  int64_t column_blocks_;
  conv::AccumulatorTile full_;  // a tile of cols_bn columns
  conv::AccumulatorTile tail_;  // the last column block's, narrower when cols_bn does not divide N
  Value* a_offsets_ = nullptr;
  Value* b_offsets_ = nullptr;
};

void require(bool ok, const BatchMatMulDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid batch_matmul desc " + desc.str() + ": " + what);
}

}  // namespace

void BatchMatMulDesc::validate() const {
  require(a_shape.size() >= 2 && b_shape.size() >= 2, *this, "both operands need rank 2 or more");
  require(std::all_of(a_shape.begin(), a_shape.end(), [](int64_t e) { return e > 0; }) &&
              std::all_of(b_shape.begin(), b_shape.end(), [](int64_t e) { return e > 0; }),
          *this, "extents must be positive");
  require(b_shape[b_shape.size() - 2] == k(), *this, "a's columns must equal b's rows");
  const std::vector<int64_t> lead_a = leading_axes(a_shape), lead_b = leading_axes(b_shape);
  for (size_t i = 1; i <= std::min(lead_a.size(), lead_b.size()); ++i) {
    const int64_t ea = lead_a[lead_a.size() - i], eb = lead_b[lead_b.size() - i];
    require(ea == eb || ea == 1 || eb == 1, *this, "leading axes do not broadcast");
  }
}

std::vector<int64_t> BatchMatMulDesc::out_shape() const {
  std::vector<int64_t> lead_a = leading_axes(a_shape), lead_b = leading_axes(b_shape);
  if (lead_a.size() < lead_b.size()) std::swap(lead_a, lead_b);
  std::vector<int64_t> shape = lead_a;  // the longer, right-aligned with the shorter
  const size_t offset = lead_a.size() - lead_b.size();
  for (size_t i = 0; i < lead_b.size(); ++i) shape[offset + i] = std::max(lead_a[offset + i], lead_b[i]);
  shape.push_back(m());
  shape.push_back(n());
  return shape;
}

int64_t BatchMatMulDesc::matrices() const {
  int64_t count = 1;
  for (const int64_t extent : leading_axes(out_shape())) count *= extent;
  return count;
}

double BatchMatMulDesc::flops() const {
  return 2.0 * static_cast<double>(matrices()) * static_cast<double>(m() * k() * n());
}

std::string BatchMatMulDesc::str() const { return "a" + shape_text(a_shape) + "_b" + shape_text(b_shape); }

std::string BatchMatMulSchedule::str() const {
  return "rows" + std::to_string(rows_bn) + "_cols" + std::to_string(cols_bn);
}

BatchMatMulSchedule batch_matmul_default_schedule(const BatchMatMulDesc& desc) {
  desc.validate();
  const int64_t lanes = host_info().vector_lanes;
  BatchMatMulSchedule s;
  s.cols_bn = std::min(desc.n(), 2 * lanes);
  const int64_t chunks = ceil_div(s.cols_bn, lanes);
  // The register file less the row of b (chunks vectors), a broadcast and a spare.
  s.rows_bn = std::clamp<int64_t>((host_info().vector_registers - chunks - 2) / chunks, 1, desc.m());
  return s;
}

void validate_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& s) {
  desc.validate();
  require(s.rows_bn > 0 && s.rows_bn <= desc.m(), desc, "rows_bn must lie in [1, M]");
  require(s.cols_bn > 0 && s.cols_bn <= desc.n(), desc, "cols_bn must lie in [1, N]");
}

Kernel compile_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule) {
  validate_batch_matmul(desc, schedule);
  return Kernel(jit::cached_kernel("batch_matmul|" + desc.str() + "|" + schedule.str(), [&] {
    jit::KernelModule module("batch_matmul");
    BatchMatMulEmitter emitter(desc, schedule, module);
    emitter.emit();
    return ops::compile_operator(module, emitter.work_items(), {.weight = true});
  }));
}

}  // namespace layoutopt::kernels
