#include "conv/winograd_transform_emitter.h"

#include <cassert>
#include <functional>
#include <map>
#include <vector>

#include "conv/stored_output.h"
#include "conv/winograd_matrices.h"
#include "jit/control_flow.h"
#include "jit/epilogue_ir.h"
#include "jit/index_arithmetic.h"
#include "jit/jit_engine.h"
#include "jit/kernel_module.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/host.h"

namespace layoutopt::kernels::conv {

namespace {

using llvm::Value;
using Matrix = std::vector<std::vector<double>>;

/// sum_i coefficients[i] * values[i], with the coefficients folded in: terms with 0 vanish,
/// +-1 become adds and subtracts, the rest fused multiply-adds.
Value* combine(llvm::IRBuilder<>& b, const std::vector<double>& coefficients, const std::vector<Value*>& values) {
  Value* sum = nullptr;
  for (size_t i = 0; i < values.size(); ++i) {
    const double c = coefficients[i];
    if (c == 0) continue;
    Value* v = values[i];
    if (sum == nullptr) {
      sum = c == 1 ? v : c == -1 ? b.CreateFNeg(v) : b.CreateFMul(llvm::ConstantFP::get(v->getType(), c), v);
    } else if (c == 1 || c == -1) {
      sum = c == 1 ? b.CreateFAdd(sum, v) : b.CreateFSub(sum, v);
    } else {
      sum = jit::fused_multiply_add(b, llvm::ConstantFP::get(v->getType(), c), v, sum);
    }
  }
  return sum != nullptr ? sum : llvm::Constant::getNullValue(values.front()->getType());
}

/// What both stages share: decoding a work item (n, band, channel block, row the band
/// touches), the vector chunks of the channel block, and where a tile's transformed values
/// live in V or M (see WinogradGeometry for both orders).
class TileRowEmitter : protected jit::IndexArithmetic {
 protected:
  struct Item {
    Value* batch = nullptr;     ///< image n
    Value* block = nullptr;     ///< channel block
    Value* tile_row = nullptr;  ///< in the image (past its last tile row in a banded kernel's last band)
    /// The row's tile columns in the band, [first_column, end_column): all of them unless
    /// the band starts or ends inside the row (then possibly none: a row past the band's).
    Value* first_column = nullptr;
    Value* end_column = nullptr;
    Value* row_in_band = nullptr;  ///< tile index in the band of the row's column 0 (may be negative)
  };

  TileRowEmitter(const WinogradGeometry& geometry, int64_t block, jit::KernelModule& module)
      : jit::IndexArithmetic(module.builder()),
        g_(geometry),
        t_(winograd_matrices(geometry.m)),
        module_(module),
        b_(module.builder()),
        chunks_(jit::vector_chunks(block, jit::JitEngine::instance().host().vector_lanes)),
        in_passes_(geometry.alpha * geometry.alpha >= 2 * host_info().vector_registers) {}

  /// Item index = ((n * bands + band) * blocks + block) * rows_per_band + band_row.
  Item decode(Value* index, int64_t blocks) {
    const int64_t rows = g_.rows_per_band();
    Value* band_row = b_.CreateURem(index, constant(rows));
    Value* rest = b_.CreateUDiv(index, constant(rows));
    Value* unit = b_.CreateUDiv(rest, constant(blocks));
    Value* band = b_.CreateURem(unit, constant(g_.bands()));
    Item item{b_.CreateUDiv(unit, constant(g_.bands())), b_.CreateURem(rest, constant(blocks))};
    if (g_.bands_whole_rows()) {
      item.tile_row = add(mul(band, rows), band_row);
      item.first_column = constant(0);
      item.end_column = constant(g_.tiles_w());
      item.row_in_band = mul(band_row, g_.tiles_w());
      return item;
    }
    // The band is tiles [start, end) of the image in row-major order.
    Value* start = mul(band, g_.band_tiles());
    Value* end = b_.CreateSelect(b_.CreateICmpEQ(band, constant(g_.bands() - 1)), constant(g_.tiles()),
                                 add(start, g_.band_tiles()));
    item.tile_row = add(b_.CreateUDiv(start, constant(g_.tiles_w())), band_row);
    item.row_in_band = b_.CreateNSWSub(mul(item.tile_row, g_.tiles_w()), start);
    Value* from_start = b_.CreateNeg(item.row_in_band);  // start - row's first tile
    Value* to_end = b_.CreateNSWSub(end, mul(item.tile_row, g_.tiles_w()));
    item.first_column = smax(from_start, constant(0));
    item.end_column = smin(to_end, constant(g_.tiles_w()));
    return item;
  }

  /// Offset of (channel block `position * blocks + block`, tile t of the band) of the item's
  /// image in V or M, whose channel block is `lanes` wide (positions position_pitch apart).
  Value* transformed_offset(const Item& item, int64_t blocks, int64_t position, Value* tile, int64_t lanes,
                            int64_t chunk_offset) {
    Value* image = g_.banded() ? constant(0) : item.batch;
    Value* first_plane = mul(add(mul(image, g_.positions()), position), g_.position_pitch(blocks * lanes));
    return add(add(first_plane, mul(add(mul(item.block, g_.band_tiles()), tile), lanes)), chunk_offset);
  }

  /// A tile's index within its band.
  Value* tile_index(const Item& item, Value* tile_column) { return add(item.row_in_band, tile_column); }

  Value* smax(Value* a, Value* b) { return b_.CreateSelect(b_.CreateICmpSGT(a, b), a, b); }
  Value* smin(Value* a, Value* b) { return b_.CreateSelect(b_.CreateICmpSLT(a, b), a, b); }

  /// The first output row or column of a tile along `axis` (see WinogradAxis): tile * m when
  /// undilated, so that path emits no division.
  Value* tile_origin(Value* tile, const WinogradAxis& axis) {
    if (axis.dilation == 1) return mul(tile, axis.m);
    Value* group = b_.CreateUDiv(tile, constant(axis.dilation));
    Value* phase = b_.CreateURem(tile, constant(axis.dilation));
    return add(mul(group, axis.group_span()), phase);
  }

  /// X^T t X (X^T: B^T for the input, A^T for the output) of one chunk's alpha x alpha tile
  /// t (row r from load_row(r)): the first `rows` values of each of the first `columns`
  /// columns are handed to use_column(c, values). Each row of t X first, then each column of
  /// X^T (t X); in registers, or with in_passes_ through a stack buffer. Why the buffer: a
  /// tile and its transform held in registers at once (128 vectors for F(6x6)) spilled
  /// wherever LLVM chose; a pass keeps a row or a column and its results live, and the buffer
  /// stays in L1. The fences keep the buffer in memory and each row and column apart. Only
  /// for tiles of at least twice the vector registers: F(4x4)'s 36-vector tiles ran their
  /// output transform 1.2x slower so with AVX-512 (docs/design/winograd.md).
  void transform(const Matrix& transposed, int64_t lanes, int64_t rows, int64_t columns,
                 const std::function<std::vector<Value*>(int64_t)>& load_row,
                 const std::function<void(int64_t, const std::vector<Value*>&)>& use_column) {
    assert(columns <= g_.alpha);
    Value* buffer = in_passes_ ? staging(lanes) : nullptr;
    std::vector<std::vector<Value*>> t_x(static_cast<size_t>(g_.alpha));  // t X in registers, [row][column]
    const auto slot = [&](int64_t r, int64_t c) { return constant((r * columns + c) * lanes); };
    for (int64_t r = 0; r < g_.alpha; ++r) {
      const std::vector<Value*> row = load_row(r);
      for (int64_t c = 0; c < columns; ++c) {
        Value* value = combine(b_, transposed[static_cast<size_t>(c)], row);
        if (buffer != nullptr)
          jit::store_vector(b_, value, buffer, slot(r, c));
        else
          t_x[static_cast<size_t>(r)].push_back(value);
      }
      if (buffer != nullptr) jit::emit_compiler_fence(b_, buffer);
    }
    for (int64_t c = 0; c < columns; ++c) {
      std::vector<Value*> column;
      for (int64_t r = 0; r < g_.alpha; ++r)
        column.push_back(buffer != nullptr ? jit::load_vector(b_, buffer, slot(r, c), lanes)
                                           : t_x[static_cast<size_t>(r)][static_cast<size_t>(c)]);
      std::vector<Value*> results;
      for (int64_t a = 0; a < rows; ++a) results.push_back(combine(b_, transposed[static_cast<size_t>(a)], column));
      use_column(c, results);
      if (buffer != nullptr) jit::emit_compiler_fence(b_, buffer);
    }
  }

  /// Whether `transform` goes through memory.
  [[nodiscard]] bool in_passes() const { return in_passes_; }

  const WinogradGeometry& g_;
  const WinogradMatrices& t_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  std::vector<jit::VectorChunk> chunks_;

 private:
  // The stack buffer of the two passes: alpha x alpha vectors of `lanes` floats (at most
  // alpha columns are kept), one for each lane count (a chunk of a masked block may be narrower).
  Value* staging(int64_t lanes) {
    Value*& buffer = staging_[lanes];
    if (buffer == nullptr)
      buffer = module_.entry_slot(llvm::ArrayType::get(b_.getFloatTy(), static_cast<uint64_t>(g_.alpha * g_.alpha * lanes)),
                                  "staging");
    return buffer;
  }

  bool in_passes_;
  std::map<int64_t, Value*> staging_;
};

class InputTransformEmitter : private TileRowEmitter {
 public:
  InputTransformEmitter(const WinogradGeometry& geometry, jit::KernelModule& module)
      : TileRowEmitter(geometry, geometry.ic_bn, module), zeros_(module.zero_array(geometry.ic_bn)) {}

  void emit() {
    jit::emit_loop(b_, module_.begin(), module_.end(), 1, [this](Value* index) {
      const Item item = decode(index, g_.in_blocks());
      jit::emit_loop(b_, item.first_column, item.end_column, 1, [&](Value* column) { emit_tile(item, column); }, "tile");
    }, "item");
  }

 private:
  void emit_tile(const Item& item, Value* column) {
    for (const jit::VectorChunk& chunk : chunks_)
      transform(
          t_.BT, chunk.lanes, g_.alpha, g_.alpha, [&](int64_t r) { return load_row(item, column, chunk, r); },
          [&](int64_t s, const std::vector<Value*>& values) {
            for (int64_t k = 0; k < g_.alpha; ++k)
              jit::store_vector(b_, values[static_cast<size_t>(k)], module_.output(),
                                transformed_offset(item, g_.in_blocks(), k * g_.alpha + s, tile_index(item, column),
                                                   g_.ic_bn, chunk.offset));
          });
  }

  // Row r of the tile's alpha x alpha input pixels, dilation apart; those outside the input
  // (padding, or past the last row or column) read zeros.
  std::vector<Value*> load_row(const Item& item, Value* column, const jit::VectorChunk& chunk, int64_t r) {
    Value* plane = add(mul(item.batch, g_.in_blocks()), item.block);
    Value* ih = add(tile_origin(item.tile_row, g_.rows()), r * g_.dilation_h - g_.pad_top);
    Value* row_inside = b_.CreateICmpULT(ih, constant(g_.in_h));
    Value* row = mul(add(mul(plane, g_.in_h), ih), g_.in_w);
    std::vector<Value*> values;
    for (int64_t s = 0; s < g_.alpha; ++s) {
      Value* iw = add(tile_origin(column, g_.columns()), s * g_.dilation_w - g_.pad_left);
      Value* inside = b_.CreateAnd(row_inside, b_.CreateICmpULT(iw, constant(g_.in_w)));
      Value* offset = add(mul(add(row, iw), g_.ic_bn), chunk.offset);
      // Plain (not inbounds) GEP: outside the input the address is computed but never read.
      Value* pointer = b_.CreateSelect(inside, b_.CreateGEP(b_.getFloatTy(), module_.input(), offset), zeros_);
      values.push_back(jit::load_vector(b_, pointer, constant(0), chunk.lanes));
    }
    return values;
  }

  Value* zeros_;
};

class OutputTransformEmitter : private TileRowEmitter {
 public:
  OutputTransformEmitter(const WinogradGeometry& geometry, jit::KernelModule& module)
      : TileRowEmitter(geometry, geometry.oc_bn, module) {}

  void emit() {
    jit::emit_loop(b_, module_.begin(), module_.end(), 1, [this](Value* index) {
      const Item item = decode(index, g_.out_blocks());
      // Bands of whole rows: the last band's rows past the image's last tile row have nothing
      // to store. Other bands end on the image's last tile (their rows past it have no columns).
      if (!g_.bands_whole_rows() || g_.bands() * g_.rows_per_band() == g_.tiles_h()) {
        emit_item(item);
        return;
      }
      jit::emit_if_else(b_, b_.CreateICmpULT(item.tile_row, constant(g_.tiles_h())), [&] { emit_item(item); }, [] {});
    }, "item");
  }

 private:
  // runs[0] is the full tile rows': they are what is left after the partial runs.
  void emit_item(const Item& item) {
    const std::vector<TileRun> runs = g_.rows().runs();
    emit_rows_by_run(item, runs, 1);
  }

  // The tile rows of a partial run (from runs[next] on) store only the output rows that
  // exist, with that count folded in; all other tile rows store m.
  void emit_rows_by_run(const Item& item, const std::vector<TileRun>& runs, size_t next) {
    if (next == runs.size()) {
      emit_rows(item, g_.m);
      return;
    }
    const TileRun& run = runs[next];
    jit::emit_if_else(
        b_, in_run(item.tile_row, run), [&] { emit_rows(item, run.stored); },
        [&] { emit_rows_by_run(item, runs, next + 1); });
  }

  // Whether tile is in the run; a run of one tile compares for equality.
  Value* in_run(Value* tile, const TileRun& run) {
    if (run.end - run.first == 1) return b_.CreateICmpEQ(tile, constant(run.first));
    return b_.CreateICmpULT(b_.CreateSub(tile, constant(run.first)), constant(run.end - run.first));
  }

  // Each run of tile columns, clipped to the item's, stores its count of columns (a run of one
  // tile emits no loop: with bands of whole rows the clipped bounds fold to constants).
  void emit_rows(const Item& item, int64_t rows) {
    for (const TileRun& run : g_.columns().runs()) {
      Value* first = smax(item.first_column, constant(run.first));
      Value* end = smin(item.end_column, constant(run.end));
      jit::emit_loop(
          b_, first, end, 1, [&](Value* column) { emit_tile(item, column, rows, run.stored); }, "tile");
    }
  }

  // In registers the whole tile's epilogues at once: their dependent chains (an exp and a
  // reciprocal in SiLU) bound the tile's time when emitted one after another
  // (docs/results/kernels.md); in passes each column's, which keeps the registers for them.
  void emit_tile(const Item& item, Value* column, int64_t rows, int64_t columns) {
    const StoredOutput stored{g_.out_channels, g_.out_h, g_.out_w, g_.oc_bn, g_.store_bn};
    for (const jit::VectorChunk& chunk : chunks_) {
      std::vector<Value*> outputs;
      std::vector<jit::EpilogueOperands> operands;
      const auto store = [&] {
        jit::store_with_epilogues(b_, g_.epilogue, std::move(outputs), operands, module_.output());
        outputs.clear();
        operands.clear();
      };
      transform(
          t_.AT, chunk.lanes, rows, columns, [&](int64_t r) { return load_row(item, column, chunk, r); },
          [&](int64_t c, const std::vector<Value*>& values) {
            Value* ow = add(tile_origin(column, g_.columns()), c * g_.dilation_w);
            for (int64_t a = 0; a < rows; ++a) {
              Value* oh = add(tile_origin(item.tile_row, g_.rows()), a * g_.dilation_h);
              outputs.push_back(values[static_cast<size_t>(a)]);
              operands.push_back({module_.bias(), add(mul(item.block, g_.oc_bn), chunk.offset), module_.residual(),
                                  output_placement(b_, stored, item.batch, item.block, oh, ow, chunk)});
            }
            if (in_passes()) store();
          });
      if (!outputs.empty()) store();
    }
  }

  // Row r of the tile's alpha x alpha transformed outputs in M.
  std::vector<Value*> load_row(const Item& item, Value* column, const jit::VectorChunk& chunk, int64_t r) {
    std::vector<Value*> values;
    for (int64_t l = 0; l < g_.alpha; ++l)
      values.push_back(jit::load_vector(
          b_, module_.input(),
          transformed_offset(item, g_.out_blocks(), r * g_.alpha + l, tile_index(item, column), g_.oc_bn, chunk.offset),
          chunk.lanes));
    return values;
  }
};

CompiledFunction without_weight(CompiledFunction compiled) {
  compiled.needs_weight = false;
  return compiled;
}

}  // namespace

CompiledFunction compile_winograd_input_transform(const WinogradGeometry& geometry) {
  jit::KernelModule module("winograd_input");
  InputTransformEmitter(geometry, module).emit();
  return without_weight(module.compile(geometry.units() * geometry.in_blocks() * geometry.rows_per_band(), Epilogue{}));
}

CompiledFunction compile_winograd_output_transform(const WinogradGeometry& geometry) {
  jit::KernelModule module("winograd_output");
  OutputTransformEmitter(geometry, module).emit();
  return without_weight(module.compile(geometry.units() * geometry.out_blocks() * geometry.rows_per_band(), geometry.epilogue));
}

}  // namespace layoutopt::kernels::conv
