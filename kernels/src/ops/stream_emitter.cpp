#include "ops/stream_emitter.h"

#include <algorithm>
#include <numeric>

#include "jit/control_flow.h"
#include "jit/jit_engine.h"
#include "jit/vector_ops.h"

namespace layoutopt::kernels::ops {

namespace {

using llvm::Value;

// Vectors per loop iteration without per-channel operands: hides the load latency.
constexpr int64_t kUnroll = 4;
// Largest pattern period, in vectors: pattern registers per operand stay well inside the
// register file.
constexpr int64_t kMaxPeriodVectors = 8;

int64_t lanes() { return jit::JitEngine::instance().host().vector_lanes; }

int64_t pattern_period(int64_t block) {
  if (block == 0) return kUnroll * lanes();
  for (int64_t vectors : {kUnroll, int64_t{1}}) {
    const int64_t period = std::lcm(block, vectors * lanes());
    if (period <= kMaxPeriodVectors * lanes()) return period;
  }
  return block;
}

// The chunking of each stream: whole periods per work item except possibly the last one.
struct ChunkPlan {
  int64_t period = 1;
  int64_t chunk = 1;       // floats per work item
  int64_t per_stream = 1;  // work items per stream
  int64_t last = 1;        // floats in a stream's last work item

  ChunkPlan(const StreamShape& shape, const ElementwiseSchedule& schedule) : period(pattern_period(shape.block)) {
    const int64_t wanted = std::min(schedule.chunk, shape.length);
    chunk = std::min((wanted + period - 1) / period * period, shape.length);
    per_stream = (shape.length + chunk - 1) / chunk;
    last = shape.length - (per_stream - 1) * chunk;
  }
};

class StreamEmitter {
 public:
  StreamEmitter(jit::KernelModule& module, const StreamShape& shape, const ChunkPlan& plan,
                const std::vector<ChannelOperand>& operands, const VectorFunction& function)
      : module_(module),
        b_(module.builder()),
        shape_(shape),
        plan_(plan),
        operands_(operands),
        function_(function),
        period_chunks_(jit::vector_chunks(plan.period, lanes())) {}

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_item(item); }, "item");
  }

 private:
  // patterns[operand][period chunk]
  using Patterns = std::vector<std::vector<Value*>>;

  Value* constant(int64_t value) { return b_.getInt64(value); }

  void emit_item(Value* item) {
    Value* stream = b_.CreateUDiv(item, constant(plan_.per_stream));
    Value* piece = b_.CreateURem(item, constant(plan_.per_stream));
    Value* start = b_.CreateNSWAdd(b_.CreateNSWMul(stream, constant(shape_.length)),
                                   b_.CreateNSWMul(piece, constant(plan_.chunk)));
    const Patterns patterns = load_patterns(stream);
    if (plan_.last == plan_.chunk) {
      emit_run(start, plan_.chunk, patterns);
      return;
    }
    jit::emit_if_else(
        b_, b_.CreateICmpEQ(piece, constant(plan_.per_stream - 1)), [&] { emit_run(start, plan_.last, patterns); },
        [&] { emit_run(start, plan_.chunk, patterns); });
  }

  // `length` floats from `start`: whole periods in a loop, then the remainder's vectors.
  void emit_run(Value* start, int64_t length, const Patterns& patterns) {
    jit::emit_loop(
        b_, 0, length / plan_.period, 1,
        [&](Value* period) {
          Value* first = b_.CreateNSWAdd(start, b_.CreateNSWMul(period, constant(plan_.period)));
          for (size_t c = 0; c < period_chunks_.size(); ++c) emit_vector(first, period_chunks_[c], patterns, c);
        },
        "period");
    Value* first = b_.CreateNSWAdd(start, constant(length / plan_.period * plan_.period));
    // Remainder chunks start at multiples of the vector width, as the period's chunks do, so
    // chunk c of the remainder is a prefix of period chunk c.
    const auto rest = jit::vector_chunks(length % plan_.period, lanes());
    for (size_t c = 0; c < rest.size(); ++c) emit_vector(first, rest[c], patterns, c);
  }

  void emit_vector(Value* first, const jit::VectorChunk& chunk, const Patterns& patterns, size_t c) {
    VectorSite site;
    site.offset = b_.CreateNSWAdd(first, constant(chunk.offset));
    site.input = jit::load_vector(b_, module_.input(), site.offset, chunk.lanes);
    for (const auto& operand : patterns) site.channel.push_back(prefix(operand[c], chunk.lanes));
    jit::store_vector(b_, function_(b_, site), module_.output(), site.offset);
  }

  Value* prefix(Value* vector, int64_t lanes) {
    const auto width = static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements());
    if (width == lanes) return vector;
    std::vector<int> mask(static_cast<size_t>(lanes));
    std::iota(mask.begin(), mask.end(), 0);
    return b_.CreateShuffleVector(vector, mask);
  }

  Patterns load_patterns(Value* stream) {
    Patterns patterns;
    for (const ChannelOperand& operand : operands_) {
      Value* plane =
          operand.index == ChannelIndex::channel ? b_.CreateURem(stream, constant(shape_.channel_blocks)) : stream;
      Value* block = jit::element_address(b_, operand.base, b_.CreateNSWMul(plane, constant(shape_.block)));
      patterns.push_back(load_pattern(block));
    }
    return patterns;
  }

  // The block's channel values arranged like the lanes of each period chunk: lane l of the
  // chunk at offset o holds channel (o + l) % block.
  std::vector<Value*> load_pattern(Value* block) {
    const int64_t x = shape_.block;
    Value* whole = nullptr;  // the block as one vector, loaded only if some chunk wraps around
    std::vector<Value*> pattern;
    for (const jit::VectorChunk& chunk : period_chunks_) {
      const int64_t first = chunk.offset % x;
      if (first + chunk.lanes <= x) {
        pattern.push_back(jit::load_vector(b_, block, constant(first), chunk.lanes));
        continue;
      }
      if (whole == nullptr) whole = jit::load_vector(b_, block, constant(0), x);
      std::vector<int> mask;
      for (int64_t l = 0; l < chunk.lanes; ++l) mask.push_back(static_cast<int>((chunk.offset + l) % x));
      pattern.push_back(b_.CreateShuffleVector(whole, mask));
    }
    return pattern;
  }

  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  const StreamShape& shape_;
  const ChunkPlan& plan_;
  const std::vector<ChannelOperand>& operands_;
  const VectorFunction& function_;
  std::vector<jit::VectorChunk> period_chunks_;
};

}  // namespace

StreamShape whole_tensor(const TensorDesc& t) { return {1, t.elements(), 0, 1}; }

StreamShape channel_planes(const TensorDesc& t) {
  return {t.batch * t.channel_blocks(), t.height * t.width * t.block, t.block, t.channel_blocks()};
}

int64_t stream_work_items(const StreamShape& shape, const ElementwiseSchedule& schedule) {
  return shape.streams * ChunkPlan(shape, schedule).per_stream;
}

void emit_stream(jit::KernelModule& module, const StreamShape& shape, const ElementwiseSchedule& schedule,
                 const std::vector<ChannelOperand>& operands, const VectorFunction& function) {
  const ChunkPlan plan(shape, schedule);
  StreamEmitter(module, shape, plan, operands, function).emit();
}

}  // namespace layoutopt::kernels::ops
