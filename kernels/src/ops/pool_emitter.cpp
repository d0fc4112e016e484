#include "ops/pool_emitter.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "conv/direct_conv_geometry.h"
#include "jit/control_flow.h"
#include "jit/index_arithmetic.h"
#include "jit/jit_engine.h"
#include "jit/kernel_module.h"
#include "jit/vector_ops.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels::ops {

namespace {

using llvm::Value;

// Column planning is conv2d's: a pooling window is an undilated conv window.
conv::DirectConvGeometry column_geometry(const Pool2dDesc& d, const Pool2dSchedule& s) {
  conv::DirectConvGeometry g;
  g.in_w = d.input.width, g.out_w = d.out_w;
  g.kernel_w = d.kernel_w, g.stride_w = d.stride_w, g.pad_left = d.pad_left;
  g.ow_bn = s.ow_bn;
  return g;
}

// Run-time facts of one work item's output row.
struct Row {
  Value* input = nullptr;     // first element of the (n, channel block) input plane
  Value* output = nullptr;    // first element of the output row
  Value* top = nullptr;       // input row of kh = 0 (negative inside the top padding)
  Value* kh_begin = nullptr;  // window rows [kh_begin, kh_end) lie inside the input
  Value* kh_end = nullptr;
  Value* counted_rows = nullptr;  // float: rows the average divides by
};

class PoolEmitter : private jit::IndexArithmetic {
 public:
  PoolEmitter(const Pool2dDesc& desc, const Pool2dSchedule& schedule, jit::KernelModule& module)
      : jit::IndexArithmetic(module.builder()),
        d_(desc),
        x_(desc.input.block),
        module_(module),
        b_(module.builder()),
        chunks_(jit::vector_chunks(x_, jit::JitEngine::instance().host().vector_lanes)),
        columns_(column_geometry(desc, schedule)) {
    for (int64_t w = 0; w < schedule.ow_bn; ++w)
      for (const jit::VectorChunk& chunk : chunks_)
        slots_.push_back(module.entry_slot(jit::float_vector_type(b_, chunk.lanes), "acc"));
  }

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_row(item); }, "item");
  }

 private:
  Value* smin(Value* a, Value* b) { return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, a, b); }
  Value* smax(Value* a, Value* b) { return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, b); }
  Value* at(Value* base, Value* offset) { return jit::element_address(b_, base, offset); }
  bool is_max() const { return d_.kind == PoolKind::max; }
  Value* slot(int64_t column, size_t chunk) const {
    return slots_[static_cast<size_t>(column) * chunks_.size() + chunk];
  }

  void emit_row(Value* item) {
    Value* oh = b_.CreateURem(item, constant(d_.out_h));
    Value* plane = b_.CreateUDiv(item, constant(d_.out_h));
    const TensorDesc& in = d_.input;
    Row row;
    row.input = at(module_.input(), mul(plane, in.height * in.width * x_));
    row.output = at(module_.output(), mul(add(mul(plane, d_.out_h), oh), d_.out_w * x_));
    row.top = add(mul(oh, d_.stride_h), -d_.pad_top);
    Value* rows_left = b_.CreateNSWSub(constant(in.height), row.top);  // input rows from `top` on
    row.kh_begin = smax(constant(0), b_.CreateNSWNeg(row.top));
    row.kh_end = smin(constant(d_.kernel_h), rows_left);
    if (!is_max()) {
      // With count_include_pad the window counts up to the padded border, not beyond it.
      Value* counted = d_.count_include_pad ? smin(constant(d_.kernel_h), add(rows_left, d_.pad_bottom))
                                            : b_.CreateNSWSub(row.kh_end, row.kh_begin);
      row.counted_rows = b_.CreateSIToFP(counted, b_.getFloatTy());
    }
    for (const conv::ColumnSegment& segment : conv::plan_columns(columns_)) emit_segment(row, segment);
  }

  void emit_segment(const Row& row, const conv::ColumnSegment& segment) {
    if (!segment.interior) {
      emit_tile(row, constant(segment.first_column), segment.first_column, segment.width);
      return;
    }
    jit::emit_loop(
        b_, 0, segment.tiles, 1,
        [&](Value* tile) {
          emit_tile(row, add(mul(tile, segment.width), segment.first_column), std::nullopt, segment.width);
        },
        "ow_tile");
  }

  // `known_column` is the tile's position for border tiles (window columns are clipped while
  // emitting) and empty for interior tiles (every window column is inside the input).
  void emit_tile(const Row& row, Value* first_column, std::optional<int64_t> known_column, int64_t width) {
    clear(width);
    jit::emit_loop(
        b_, row.kh_begin, row.kh_end, 1,
        [&](Value* kh) {
          Value* line = at(row.input, mul(add(row.top, kh), d_.input.width * x_));
          for (int64_t w = 0; w < width; ++w)
            for (Value* offset : window_offsets(first_column, known_column, w)) accumulate(w, line, offset);
        },
        "kh");
    store(row, first_column, known_column, width);
  }

  // First input column of tile column w's window (may lie in the left padding).
  int64_t window_start(int64_t column) const { return column * d_.stride_w - d_.pad_left; }

  // Element offsets within an input row of the window columns of tile column w that lie
  // inside the input.
  std::vector<Value*> window_offsets(Value* first_column, std::optional<int64_t> known_column, int64_t w) {
    std::vector<Value*> offsets;
    if (known_column) {
      const int64_t start = window_start(*known_column + w);
      for (int64_t iw = std::max<int64_t>(start, 0); iw < std::min(start + d_.kernel_w, d_.input.width); ++iw)
        offsets.push_back(constant(iw * x_));
      return offsets;
    }
    Value* start = add(mul(add(first_column, w), d_.stride_w), -d_.pad_left);
    for (int64_t kw = 0; kw < d_.kernel_w; ++kw) offsets.push_back(mul(add(start, kw), x_));
    return offsets;
  }

  // Columns the average of tile column w divides by (a compile-time constant: interior
  // windows are whole, border positions are known).
  int64_t counted_columns(std::optional<int64_t> known_column, int64_t w) const {
    if (!known_column) return d_.kernel_w;
    const int64_t start = window_start(*known_column + w);
    const int64_t end = std::min(start + d_.kernel_w, d_.input.width + (d_.count_include_pad ? d_.pad_right : 0));
    return end - (d_.count_include_pad ? start : std::max<int64_t>(start, 0));
  }

  void clear(int64_t width) {
    const float initial = is_max() ? -std::numeric_limits<float>::infinity() : 0.0F;
    for (int64_t w = 0; w < width; ++w)
      for (size_t c = 0; c < chunks_.size(); ++c)
        b_.CreateStore(llvm::ConstantFP::get(jit::float_vector_type(b_, chunks_[c].lanes), initial), slot(w, c));
  }

  void accumulate(int64_t w, Value* line, Value* offset) {
    for (size_t c = 0; c < chunks_.size(); ++c) {
      Value* value = jit::load_vector(b_, line, add(offset, chunks_[c].offset), chunks_[c].lanes);
      Value* acc = load(w, c);
      // compare + select is a single vmaxps (llvm.maxnum adds NaN fix-ups); the price is that
      // a NaN input is skipped rather than propagated.
      Value* combined =
          is_max() ? b_.CreateSelect(b_.CreateFCmpOGT(value, acc), value, acc) : b_.CreateFAdd(acc, value);
      b_.CreateStore(combined, slot(w, c));
    }
  }

  Value* load(int64_t w, size_t c) { return b_.CreateLoad(jit::float_vector_type(b_, chunks_[c].lanes), slot(w, c)); }

  void store(const Row& row, Value* first_column, std::optional<int64_t> known_column, int64_t width) {
    for (int64_t w = 0; w < width; ++w) {
      Value* scale = nullptr;
      if (!is_max()) {
        Value* count = b_.CreateFMul(
            row.counted_rows,
            llvm::ConstantFP::get(b_.getFloatTy(), static_cast<double>(counted_columns(known_column, w))));
        scale = b_.CreateFDiv(llvm::ConstantFP::get(b_.getFloatTy(), 1.0), count);
      }
      Value* pixel = mul(add(first_column, w), x_);
      for (size_t c = 0; c < chunks_.size(); ++c) {
        Value* value = load(w, c);
        if (scale != nullptr)
          value = b_.CreateFMul(value, b_.CreateVectorSplat(static_cast<unsigned>(chunks_[c].lanes), scale));
        jit::store_vector(b_, value, row.output, add(pixel, chunks_[c].offset));
      }
    }
  }

  const Pool2dDesc& d_;
  int64_t x_;  // channel block
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  std::vector<jit::VectorChunk> chunks_;
  conv::DirectConvGeometry columns_;
  std::vector<Value*> slots_;  // (tile column, chunk)
};

}  // namespace

CompiledFunction compile_pool(const Pool2dDesc& desc, const Pool2dSchedule& schedule, const std::string& kind) {
  jit::KernelModule module(kind);
  PoolEmitter(desc, schedule, module).emit();
  const TensorDesc& in = desc.input;
  return compile_operator(module, in.batch * in.channel_blocks() * desc.out_h, {});
}

}  // namespace layoutopt::kernels::ops
