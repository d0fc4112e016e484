#include "conv/direct_conv_emitter.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "conv/stored_output.h"
#include "jit/control_flow.h"
#include "jit/epilogue_ir.h"
#include "jit/index_arithmetic.h"
#include "jit/jit_engine.h"
#include "jit/kernel_module.h"

namespace layoutopt::kernels::conv {

namespace {

using llvm::Value;

// Most input floats a reduction step fetches ahead for the next: a quarter of the smallest L1
// data cache of current x86 cores (32 KiB), so the fetched rows do not evict the ones in use.
constexpr int64_t kInputPrefetchFloats = (8 << 10) / sizeof(float);

// Coordinates of one work item.
struct Item {
  Value* batch = nullptr;
  Value* out_block = nullptr;  // first output block of the item's tile
  Value* row_tile = nullptr;
  Value* first_row = nullptr;  // first output row of the row tile
  int64_t blocks = 1;          // output blocks in the tile (fewer in a run's last tile)
};

class DirectConvEmitter : private jit::IndexArithmetic {
 public:
  DirectConvEmitter(const DirectConvGeometry& geometry, const ConvReduction& reduction, jit::KernelModule& module)
      : jit::IndexArithmetic(module.builder()),
        g_(geometry),
        reduction_(reduction),
        module_(module),
        b_(module.builder()),
        acc_(module, geometry.oh_bn, geometry.ow_bn,
             tile_chunks(geometry.out_bn, geometry.tile_blocks, jit::JitEngine::instance().host().vector_lanes)),
        zeros_(geometry.oh_bn == 1 || geometry.rows_always_valid() ? nullptr
                                                                   : module.zero_array(geometry.input_row_span())),
        staging_(geometry.prologue ? staging_buffer(module, geometry) : nullptr),
        steps_per_pass_(geometry.steps_per_pass > 0 ? std::min(geometry.steps_per_pass, reduction.outer_steps())
                                                    : reduction.outer_steps()),
        passes_((reduction.outer_steps() + steps_per_pass_ - 1) / steps_per_pass_),
        stream_(geometry.prefetch_weights
                    ? plan_weight_stream(geometry, reduction.outer_steps(), reduction.weights_per_out_block(),
                                         reduction.prefetch_slots_per_tap())
                    : WeightStream{}) {}

  // With several passes, each reduces its chunk of input blocks for all of the thread's
  // items (one contiguous range per thread) before the next pass starts: an output block's
  // chunk of weights is then read from L1 by all its row tiles in the range.
  void emit() {
    const auto items = [this] {
      jit::emit_loop(b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_item(item); }, "item");
    };
    if (passes_ == 1) {
      items();
      return;
    }
    jit::emit_loop(
        b_, 0, passes_, 1,
        [&](Value* pass) {
          pass_ = pass;
          items();
        },
        "pass");
  }

  [[nodiscard]] bool output_holds_partial_sums() const { return passes_ > 1; }

 private:
  Value* ceil_div(Value* a, int64_t b) { return b_.CreateSDiv(add(a, b - 1), constant(b)); }

  void emit_item(Value* index) {
    // index = (batch * outer + o) * inner + i, with (outer, inner) = (out tiles, row tiles)
    // or swapped.
    const int64_t inner = g_.out_block_inner ? g_.out_tiles() : g_.row_tiles();
    const int64_t outer = g_.out_block_inner ? g_.row_tiles() : g_.out_tiles();
    Value* i = b_.CreateURem(index, constant(inner));
    Value* rest = b_.CreateUDiv(index, constant(inner));
    Value* o = b_.CreateURem(rest, constant(outer));
    Value* row_tile = g_.out_block_inner ? o : i;
    Value* out_tile = g_.out_block_inner ? i : o;
    // Tile t of run r starts at block r * run_blocks + t * tile_blocks.
    Value* tile_in_run = b_.CreateURem(out_tile, constant(g_.tiles_per_run()));
    Value* first_block = add(mul(b_.CreateUDiv(out_tile, constant(g_.tiles_per_run())), g_.run_blocks),
                             mul(tile_in_run, g_.tile_blocks));
    Item item{b_.CreateUDiv(rest, constant(outer)), first_block, row_tile, mul(row_tile, g_.oh_bn), g_.tile_blocks};
    if (g_.last_tile_blocks() == g_.tile_blocks) {
      emit_row_tile(item);
      return;
    }
    // A run's last tile holds fewer blocks: give it its own, narrower register tile.
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(tile_in_run, constant(g_.tiles_per_run() - 1)),
        [&] {
          Item last = item;
          last.blocks = g_.last_tile_blocks();
          emit_row_tile(last);
        },
        [&] { emit_row_tile(item); });
  }

  // The item's rows; the last row tile may be shorter.
  void emit_row_tile(const Item& item) {
    const int64_t tail_rows = g_.out_h % g_.oh_bn;
    if (tail_rows == 0) {
      emit_rows(item, g_.oh_bn);
      return;
    }
    // The last row tile is shorter: give it its own, smaller register tile.
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(item.row_tile, constant(g_.row_tiles() - 1)), [&] { emit_rows(item, tail_rows); },
        [&] { emit_rows(item, g_.oh_bn); });
  }

  void emit_rows(const Item& item, int64_t rows) {
    for (const ColumnSegment& segment : plan_columns(g_)) {
      if (!segment.interior) {
        emit_tile(item, rows, segment.first_column, segment.width);
        continue;
      }
      jit::emit_loop(
          b_, 0, segment.tiles, 1,
          [&](Value* tile) {
            Value* first_column = add(mul(tile, segment.width), segment.first_column);
            emit_tile(item, rows, first_column, std::nullopt, segment.width);
          },
          "ow_tile");
    }
  }

  // Border tile: its position is a compile-time constant.
  void emit_tile(const Item& item, int64_t rows, int64_t first_column, int64_t width) {
    emit_tile(item, rows, constant(first_column), first_column, width);
  }

  // `known_column` is set for border tiles (padding taps are dropped at compile time) and
  // empty for interior tiles (no tap reads padding).
  void emit_tile(const Item& item, int64_t rows, Value* first_column, std::optional<int64_t> known_column,
                 int64_t width) {
    start_tile(item, rows, first_column, width);
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in a lambda.
    const std::pair<Value*, Value*> kh_range = kernel_rows(item, rows);
    Value* const kh_begin = kh_range.first;
    Value* const kh_end = kh_range.second;
    const std::pair<Value*, Value*> steps = pass_steps();
    jit::emit_loop(
        b_, steps.first, steps.second, 1,
        [&](Value* step) {
          Value* in_block = reduction_.input_block(b_, item.out_block, step);
          const std::vector<Value*> staged =
              g_.prologue ? stage_with_prologue(item, in_block, rows, first_column, width) : std::vector<Value*>{};
          jit::emit_loop(
              b_, kh_begin, kh_end, 1,
              [&](Value* kh) {
                prefetch_next_step_rows(item, step, rows, kh, first_column, width);
                Tap tap{module_.weight(),
                        item.out_block,
                        step,
                        kh,
                        nullptr,
                        staged.empty() ? row_pointers(item, in_block, rows, kh) : staged,
                        {},
                        {},
                        block_scales(item, in_block),
                        mul(in_block, g_.in_bn),
                        item.blocks};
                emit_kernel_columns(tap, item, first_column, known_column, width);
              },
              "kh");
        },
        "ic_outer");
    finish_tile(item, rows, first_column, width);
  }

  // Fetches into L1 the input row kh of the next reduction step (the same step at the last),
  // over the tile's columns, while this step computes.
  void prefetch_next_step_rows(const Item& item, Value* step, int64_t rows, Value* kh, Value* first_column,
                               int64_t width) {
    if (!g_.prefetch_input || g_.load_bn % g_.in_bn != 0) return;
    const int64_t span = (width - 1) * g_.stride_w + (g_.kernel_w - 1) * g_.dilation_w + 1;
    const int64_t lines = (span * g_.load_bn + kFloatsPerCacheLine - 1) / kFloatsPerCacheLine + 1;
    if (g_.kernel_h * rows * lines * kFloatsPerCacheLine > kInputPrefetchFloats) return;
    Value* next = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, add(step, 1), constant(reduction_.outer_steps() - 1));
    Value* in_block = reduction_.input_block(b_, item.out_block, next);
    Value* first_iw = b_.CreateBinaryIntrinsic(
        llvm::Intrinsic::smax, add(mul(first_column, g_.stride_w), -g_.pad_left), constant(0));
    for (Value* row : row_pointers(item, in_block, rows, kh)) {
      Value* start = b_.CreateGEP(b_.getFloatTy(), row, mul(first_iw, g_.load_bn));
      for (int64_t line = 0; line < lines; ++line) {
        Value* address = b_.CreateGEP(b_.getFloatTy(), start, constant(line * kFloatsPerCacheLine));
        // llvm.prefetch(address, read, locality 3 = prefetcht0, toward L1; data cache)
        b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {address->getType()},
                           {address, b_.getInt32(0), b_.getInt32(3), b_.getInt32(1)});
      }
    }
  }

  // Reduction steps [begin, end) of the current pass.
  std::pair<Value*, Value*> pass_steps() {
    if (passes_ == 1) return {constant(0), constant(reduction_.outer_steps())};
    Value* begin = mul(pass_, steps_per_pass_);
    Value* end = add(begin, steps_per_pass_);
    if (reduction_.outer_steps() % steps_per_pass_ != 0)
      end = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, end, constant(reduction_.outer_steps()));
    return {begin, end};
  }

  // The first pass starts from zero, later ones from the partial sums the one before stored.
  void start_tile(const Item& item, int64_t rows, Value* first_column, int64_t width) {
    if (passes_ == 1) {
      acc_.clear(b_, rows, width);
      return;
    }
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(pass_, constant(0)), [&] { acc_.clear(b_, rows, width); },
        [&] {
          for_each_accumulator(item, rows, first_column, width,
                               [&](int64_t r, int64_t w, size_t c, const jit::VectorPlacement& placement) {
                                 acc_.set(b_, r, w, c, jit::load_placed(b_, module_.output(), placement));
                               });
        });
  }

  // The last pass applies the epilogue and stores the result; earlier ones store partial sums.
  void finish_tile(const Item& item, int64_t rows, Value* first_column, int64_t width) {
    if (passes_ == 1) {
      store_tile(item, rows, first_column, width);
      return;
    }
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(pass_, constant(passes_ - 1)), [&] { store_tile(item, rows, first_column, width); },
        [&] {
          for_each_accumulator(item, rows, first_column, width,
                               [&](int64_t r, int64_t w, size_t c, const jit::VectorPlacement& placement) {
                                 jit::store_placed(b_, acc_.load(b_, r, w, c), module_.output(), placement);
                               });
        });
  }

  // body(row, column, chunk, placement) for each accumulator of the tile, with where its
  // vector lies in the stored output.
  template <typename Body>
  void for_each_accumulator(const Item& item, int64_t rows, Value* first_column, int64_t width, const Body& body) {
    const auto& chunks = acc_.chunks();
    const size_t computed = acc_.chunks_below(item.blocks * g_.out_bn);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t w = 0; w < width; ++w)
        for (size_t c = 0; c < computed; ++c) {
          const jit::VectorChunk in_block{chunks[c].offset % g_.out_bn, chunks[c].lanes};
          body(r, w, c,
               output_placement(b_, stored_output(), item.batch, add(item.out_block, chunks[c].offset / g_.out_bn),
                                add(item.first_row, r), add(first_column, w), in_block));
        }
  }

  void emit_kernel_columns(Tap& tap, const Item& item, Value* first_column, std::optional<int64_t> known_column,
                           int64_t width) {
    const auto kw_tap = [&](Value* kw) {
      tap.kw = kw;
      tap.prefetch = weight_prefetch(item, tap, first_column);
      tap.columns = g_.prologue ? staged_columns(width) : tap_columns(first_column, known_column, width, kw);
      return tap;
    };
    // Border tiles always unroll kw: dropping padding taps needs a constant kw.
    if (known_column || g_.unroll_kw) {
      std::vector<Tap> taps;
      jit::emit_unrolled(b_, 0, g_.kernel_w, [&](Value* kw) { taps.push_back(kw_tap(kw)); });
      reduction_.accumulate_kernel_row(b_, taps, acc_);
      return;
    }
    jit::emit_loop(
        b_, 0, g_.kernel_w, 1,
        [&](Value* kw) {
          const Tap& one = kw_tap(kw);
          if (!one.columns.empty()) reduction_.accumulate(b_, one, acc_);
        },
        "kw");
  }

  // Streams the next output tile's weights toward L1 while this tile computes (see
  // plan_weight_stream for how the fetch is shared out). A large layer's weights come from
  // memory on every inference (the other layers' weights evict them), and a tile whose
  // weights are not on their way waits for them (evidence: docs/design/weight-prefetch.md).
  // The last tiles fetch the last blocks (already cached, so nearly free), never past them.
  WeightPrefetch weight_prefetch(const Item& item, const Tap& tap, Value* first_column) {
    if (stream_.lines_per_slot == 0) return {};
    Value* sharer = g_.out_block_inner ? constant(0) : item.row_tile;
    Value* column_tile = b_.CreateUDiv(first_column, constant(g_.ow_bn));
    Value* tap_index = add(mul(sharer, stream_.column_tiles), column_tile);
    // With passes, the tap's step within its pass, and the pass's chunk of the next tile.
    Value* step = passes_ > 1 ? b_.CreateSub(tap.step, mul(pass_, steps_per_pass_)) : tap.step;
    tap_index = add(mul(tap_index, steps_per_pass_), step);
    tap_index = add(mul(add(mul(tap_index, g_.kernel_h), tap.kh), g_.kernel_w), tap.kw);
    Value* next_block = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, add(item.out_block, g_.tile_blocks),
                                                 constant(g_.out_blocks - g_.tile_blocks));
    Value* start = mul(next_block, reduction_.weights_per_out_block());
    if (passes_ > 1) start = add(start, mul(pass_, stream_.chunk_floats));
    return {start, mul(tap_index, reduction_.prefetch_slots_per_tap()), stream_};
  }

  std::vector<TapColumn> tap_columns(Value* first_column, std::optional<int64_t> known_column, int64_t width,
                                     Value* kw) {
    std::vector<TapColumn> columns;
    // Known only where kw is (unrolled taps); a kw loop shares no pixels between taps.
    const auto* constant_kw = llvm::dyn_cast<llvm::ConstantInt>(kw);
    for (int64_t w = 0; w < width; ++w) {
      const int64_t input_column = w * g_.stride_w + (constant_kw ? constant_kw->getSExtValue() * g_.dilation_w : 0);
      if (known_column) {
        const int64_t iw = g_.input_column(*known_column + w, constant_kw->getSExtValue());
        if (iw >= 0 && iw < g_.in_w) columns.push_back({w, constant(iw * g_.load_bn), input_column});
        continue;
      }
      Value* iw = add(add(mul(add(first_column, w), g_.stride_w), mul(kw, g_.dilation_w)), -g_.pad_left);
      columns.push_back({w, mul(iw, g_.load_bn), input_column});
    }
    return columns;
  }

  // The prologue's staging buffer: one register tile's input pixels of one reduction block,
  // [row][column][in_bn], on the stack.
  static Value* staging_buffer(jit::KernelModule& module, const DirectConvGeometry& g) {
    auto* type = llvm::ArrayType::get(module.builder().getFloatTy(), static_cast<uint64_t>(g.oh_bn * g.ow_bn * g.in_bn));
    auto* slot = llvm::cast<llvm::AllocaInst>(module.entry_slot(type, "staged"));
    slot->setAlignment(llvm::Align(64));
    return slot;
  }

  // Writes activation(x * scale + shift) of the tile's input pixels in reduction block
  // `in_block` into the staging buffer and returns its rows: each element is transformed
  // once per tile and step, then broadcast from L1 by every FMA that reads it (a transform
  // per broadcast would cost two vector operations per tile_blocks FMAs). Unpadded 1x1 convs
  // only (Conv2dDesc::validate): output pixel (r, w) reads input pixel (r, w) * stride.
  std::vector<Value*> stage_with_prologue(const Item& item, Value* in_block, int64_t rows, Value* first_column,
                                          int64_t width) {
    // Vectors within the runs of channels the stored input holds one after another (its
    // block may be smaller than the reduction's).
    const int64_t run = std::gcd(g_.in_bn, g_.load_bn);
    const int64_t in_channels = g_.in_blocks * g_.in_bn;
    std::vector<jit::VectorChunk> chunks;
    std::vector<Value*> scales, shifts, channel_offsets;
    for (int64_t first = 0; first < g_.in_bn; first += run)
      for (const jit::VectorChunk& piece : jit::vector_chunks(run, jit::JitEngine::instance().host().vector_lanes)) {
        const jit::VectorChunk chunk{first + piece.offset, piece.lanes};
        Value* channel = add(mul(in_block, g_.in_bn), chunk.offset);
        scales.push_back(jit::load_vector(b_, module_.bias(), add(channel, g_.prologue_offset), chunk.lanes));
        shifts.push_back(
            jit::load_vector(b_, module_.bias(), add(channel, g_.prologue_offset + in_channels), chunk.lanes));
        Value* stored_block = b_.CreateUDiv(channel, constant(g_.load_bn));
        channel_offsets.push_back(
            add(mul(stored_block, g_.load_plane()), b_.CreateURem(channel, constant(g_.load_bn))));
        chunks.push_back(chunk);
      }
    Value* image = mul(item.batch, g_.load_blocks * g_.load_plane());
    std::vector<Value*> staged_rows;
    for (int64_t r = 0; r < rows; ++r) {
      Value* row = add(image, mul(mul(add(item.first_row, r), g_.stride_h), g_.in_w * g_.load_bn));
      Value* staged_row = b_.CreateGEP(b_.getFloatTy(), staging_, constant(r * g_.ow_bn * g_.in_bn));
      for (int64_t w = 0; w < width; ++w) {
        Value* pixel = add(row, mul(mul(add(first_column, w), g_.stride_w), g_.load_bn));
        for (size_t k = 0; k < chunks.size(); ++k) {
          Value* x = jit::load_vector(b_, module_.input(), b_.CreateAdd(pixel, channel_offsets[k]), chunks[k].lanes);
          x = jit::emit_activation(b_, *g_.prologue, jit::fused_multiply_add(b_, x, scales[k], shifts[k]));
          jit::store_vector(b_, x, staged_row, constant(w * g_.in_bn + chunks[k].offset));
        }
      }
      staged_rows.push_back(staged_row);
    }
    // The buffer escapes here, so LLVM keeps it in memory: promoted to registers, its
    // vectors would crowd the accumulators and the broadcasts become shuffles.
    jit::emit_compiler_fence(b_, staging_);
    return staged_rows;
  }

  // The staged pixels of a tile's columns: column w at w * in_bn from its row's start.
  std::vector<TapColumn> staged_columns(int64_t width) {
    std::vector<TapColumn> columns;
    for (int64_t w = 0; w < width; ++w) columns.push_back({w, constant(w * g_.in_bn), w * g_.stride_w});
    return columns;
  }

  // Kernel rows [begin, end) a tile visits. One output row visits only the kernel rows that
  // land inside the input, so no FMA is spent on padding rows; taller tiles visit all kernel
  // rows and read zeros for padding rows (see row_pointers).
  std::pair<Value*, Value*> kernel_rows(const Item& item, int64_t rows) {
    if (rows > 1 || g_.rows_always_valid()) return {constant(0), constant(g_.kernel_h)};
    // Input row (first_row * stride - pad_top) + kh * dilation must lie in [0, in_h).
    Value* above = b_.CreateNSWSub(constant(g_.pad_top), mul(item.first_row, g_.stride_h));
    Value* begin = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, ceil_div(above, g_.dilation_h), constant(0));
    Value* end = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, ceil_div(add(above, g_.in_h), g_.dilation_h),
                                          constant(g_.kernel_h));
    return {begin, end};
  }

  // The input scale's factors of input block `in_block` for the item's image: scale is a
  // plain [batch][in_blocks * in_bn] vector. Null without an input scale.
  Value* block_scales(const Item& item, Value* in_block) {
    if (!g_.input_scale) return nullptr;
    Value* first_channel = mul(add(mul(item.batch, g_.in_blocks), in_block), g_.in_bn);
    return b_.CreateGEP(b_.getFloatTy(), module_.scale(), first_channel);
  }

  [[nodiscard]] StoredOutput stored_output() const {
    return {g_.out_blocks * g_.out_bn, g_.out_h, g_.out_w, g_.out_bn, g_.store_bn, g_.groups, g_.out_group_pad};
  }

  // Pointers into each tile row's input row at stored_position. In tiles of several rows,
  // rows in the vertical padding point at a zero row: a few wasted FMAs on border rows, but
  // no per-row branches in the tile code.
  std::vector<Value*> row_pointers(const Item& item, Value* in_block, int64_t rows, Value* kh) {
    const auto [stored_block, lane] = stored_position(in_block);
    Value* plane = mul(add(mul(item.batch, g_.load_blocks), stored_block), g_.in_h);
    Value* input = group_input(item);
    std::vector<Value*> pointers;
    for (int64_t r = 0; r < rows; ++r) {
      Value* ih = add(add(mul(add(item.first_row, r), g_.stride_h), mul(kh, g_.dilation_h)), -g_.pad_top);
      Value* offset = b_.CreateAdd(b_.CreateMul(b_.CreateAdd(plane, ih), constant(g_.in_w * g_.load_bn)), lane);
      Value* pointer = b_.CreateGEP(b_.getFloatTy(), input, offset);
      if (zeros_ != nullptr) pointer = b_.CreateSelect(b_.CreateICmpULT(ih, constant(g_.in_h)), pointer, zeros_);
      pointers.push_back(pointer);
    }
    return pointers;
  }

  // The input moved past the group padding before the item's group (DirectConvGeometry::
  // in_group_pad), found from the output block, which the reduction steps leave unchanged.
  // Why a moved base and not a term of each row's offset: with the term, LLVM addressed every
  // broadcast with a scaled index and the Winograd product ran 5-7% slower (AVX-512, Zen 5).
  Value* group_input(const Item& item) {
    if (g_.in_group_pad == 0) return module_.input();
    Value* group = b_.CreateUDiv(item.out_block, constant(g_.out_blocks / g_.groups));
    return b_.CreateGEP(b_.getFloatTy(), module_.input(), mul(add(mul(item.batch, g_.groups), group), g_.in_group_pad));
  }

  // Where row pointers point: at reduction block `in_block`'s first channel (its stored block
  // and lane) when the input is read in a multiple of in_bn, so that channel ic of the block
  // lies ic floats on; else at stored block 0, the reduction addressing each channel itself.
  std::pair<Value*, Value*> stored_position(Value* in_block) {
    if (g_.load_bn % g_.in_bn != 0) return {constant(0), constant(0)};
    const int64_t per_stored = g_.load_bn / g_.in_bn;
    if (per_stored == 1) return {in_block, constant(0)};
    return {b_.CreateUDiv(in_block, constant(per_stored)), mul(b_.CreateURem(in_block, constant(per_stored)), g_.in_bn)};
  }

  // The whole tile's epilogues at once: their dependent chains (an exp and a reciprocal in
  // SiLU) bound the tile's time when emitted one after another (docs/results/kernels.md).
  void store_tile(const Item& item, int64_t rows, Value* first_column, int64_t width) {
    const auto& chunks = acc_.chunks();
    std::vector<Value*> accumulators;
    std::vector<jit::EpilogueOperands> operands;
    for_each_accumulator(item, rows, first_column, width,
                         [&](int64_t r, int64_t w, size_t c, const jit::VectorPlacement& placement) {
                           Value* channel = add(mul(item.out_block, g_.out_bn), chunks[c].offset);
                           accumulators.push_back(acc_.load(b_, r, w, c));
                           operands.push_back({module_.bias(), channel, module_.residual(), placement});
                         });
    jit::store_with_epilogues(b_, g_.epilogue, std::move(accumulators), operands, module_.output());
  }

  const DirectConvGeometry& g_;
  const ConvReduction& reduction_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  AccumulatorTile acc_;
  Value* zeros_;
  Value* staging_;          // the prologue's transformed inputs (null without a prologue)
  int64_t steps_per_pass_;  // reduction steps (input blocks) per pass
  int64_t passes_;
  Value* pass_ = nullptr;   // the current pass, while the pass loop is emitted
  WeightStream stream_;     // lines_per_slot 0: no prefetch
};

}  // namespace

void WeightPrefetch::emit(llvm::IRBuilder<>& builder, llvm::Value* weight, llvm::Value* slot) const {
  if (stream.lines_per_slot == 0) return;
  // WeightStream::first_line_of_slot of the tile's slot.
  Value* tile_slot = builder.CreateNSWAdd(first_slot, slot);
  Value* first =
      stream.slots > stream.lines
          ? builder.CreateUDiv(builder.CreateNSWMul(tile_slot, builder.getInt64(stream.lines)),
                               builder.getInt64(stream.slots))
          : builder.CreateNSWMul(tile_slot, builder.getInt64(stream.lines_per_slot));
  // Branch-free: slots past the last line fetch it again (cached, nearly free). A branch around
  // them splits the unrolled reduction, and LLVM then hoists and spills its weight vectors
  // (docs/design/weight-prefetch.md).
  for (int64_t i = 0; i < stream.lines_per_slot; ++i) {
    Value* line = builder.CreateBinaryIntrinsic(llvm::Intrinsic::smin, builder.CreateNSWAdd(first, builder.getInt64(i)),
                                                builder.getInt64(stream.lines - 1));
    // WeightStream::line_offset: in runs, line / run_lines runs on, line % run_lines into it.
    Value* start = block_start;
    if (stream.run_lines > 0) {
      Value* run = builder.CreateUDiv(line, builder.getInt64(stream.run_lines));
      start = builder.CreateNSWAdd(start, builder.CreateNSWMul(run, builder.getInt64(stream.run_stride)));
      line = builder.CreateNSWSub(line, builder.CreateNSWMul(run, builder.getInt64(stream.run_lines)));
    }
    Value* offset = builder.CreateNSWAdd(start, builder.CreateNSWMul(line, builder.getInt64(kFloatsPerCacheLine)));
    Value* address = builder.CreateGEP(builder.getFloatTy(), weight, offset);
    // llvm.prefetch(address, read, locality 3 = prefetcht0, toward L1; data cache)
    builder.CreateIntrinsic(llvm::Intrinsic::prefetch, {address->getType()},
                            {address, builder.getInt32(0), builder.getInt32(3), builder.getInt32(1)});
  }
}

CompiledFunction compile_direct_conv(const DirectConvGeometry& geometry, const ConvReduction& reduction,
                                     const std::string& kind) {
  jit::KernelModule module(kind);
  DirectConvEmitter emitter(geometry, reduction, module);
  emitter.emit();
  CompiledFunction compiled = module.compile(geometry.work_items(), geometry.epilogue, geometry.input_scale);
  compiled.output_holds_partial_sums = emitter.output_holds_partial_sums();
  compiled.needs_bias = compiled.needs_bias || geometry.prologue.has_value();  // the prologue's constants
  return compiled;
}

}  // namespace layoutopt::kernels::conv
