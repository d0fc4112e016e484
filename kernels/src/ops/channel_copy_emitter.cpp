#include "ops/channel_copy_emitter.h"

#include <numeric>

#include "jit/control_flow.h"
#include "jit/index_arithmetic.h"
#include "jit/jit_engine.h"
#include "jit/kernel_module.h"
#include "jit/vector_ops.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels::ops {

namespace {

using llvm::Value;

class ChannelCopyEmitter : private jit::IndexArithmetic {
 public:
  ChannelCopyEmitter(const ChannelCopy& copy, jit::KernelModule& module)
      : jit::IndexArithmetic(module.builder()),
        c_(copy),
        run_(std::gcd(copy.in_block, copy.out_block)),
        module_(module),
        b_(module.builder()),
        chunks_(jit::vector_chunks(run_, jit::JitEngine::instance().host().vector_lanes)) {}

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_row(item); }, "item");
  }

 private:

  void emit_row(Value* item) {
    const int64_t range_blocks = c_.channels / c_.out_block;
    Value* h = b_.CreateURem(item, constant(c_.height));
    Value* rest = b_.CreateUDiv(item, constant(c_.height));
    Value* block = b_.CreateURem(rest, constant(range_blocks));  // output block within the copied range
    Value* n = b_.CreateUDiv(rest, constant(range_blocks));
    Value* out_block = add(mul(n, c_.out_channels / c_.out_block), add(block, c_.out_offset / c_.out_block));
    Value* out_row = mul(add(mul(out_block, c_.height), h), c_.width * c_.out_block);
    for (int64_t run = 0; run < c_.out_block / run_; ++run) {
      // First input channel of this run, and where it lives in NCHW[in_block]c.
      Value* channel = add(mul(block, c_.out_block), c_.in_offset + run * run_);
      Value* in_block = add(mul(n, c_.in_channels / c_.in_block), b_.CreateUDiv(channel, constant(c_.in_block)));
      Value* in_row = add(mul(add(mul(in_block, c_.height), h), c_.width * c_.in_block),
                          b_.CreateURem(channel, constant(c_.in_block)));
      emit_run(in_row, add(out_row, run * run_));
    }
  }

  void emit_run(Value* in_row, Value* out_row) {
    jit::emit_loop(
        b_, 0, c_.width, 1,
        [&](Value* w) {
          Value* in = add(in_row, mul(w, c_.in_block));
          Value* out = add(out_row, mul(w, c_.out_block));
          for (const jit::VectorChunk& chunk : chunks_) {
            Value* value = jit::load_vector(b_, module_.input(), add(in, chunk.offset), chunk.lanes);
            jit::store_vector(b_, value, module_.output(), add(out, chunk.offset));
          }
        },
        "w");
  }

  const ChannelCopy& c_;
  int64_t run_;  // channels contiguous in both layouts
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  std::vector<jit::VectorChunk> chunks_;
};

}  // namespace

std::string ChannelCopy::str() const {
  return "n" + std::to_string(batch) + "_h" + std::to_string(height) + "_w" + std::to_string(width) + "_c" +
         std::to_string(channels) + "_from_c" + std::to_string(in_channels) + "x" + std::to_string(in_block) + "_at" +
         std::to_string(in_offset) + "_to_c" + std::to_string(out_channels) + "x" + std::to_string(out_block) + "_at" +
         std::to_string(out_offset);
}

CompiledFunction compile_channel_copy(const ChannelCopy& copy, const std::string& kind) {
  jit::KernelModule module(kind);
  ChannelCopyEmitter(copy, module).emit();
  return compile_operator(module, copy.work_items(), {});
}

}  // namespace layoutopt::kernels::ops
