#include "layoutopt/kernels/layer_norm.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "jit/control_flow.h"
#include "jit/jit_engine.h"
#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels {

namespace {

using llvm::Value;

/// The block the kernel walks: with contiguous channels (inner = 1) any divisor of C names the
/// same memory, so the host's vector width when it divides C (a loop of whole vectors), else C.
int64_t walked_block(const LayerNormDesc& desc, int64_t lanes) {
  if (desc.inner != 1) return desc.block;
  return desc.channels % lanes == 0 ? lanes : desc.channels;
}

class LayerNormEmitter {
 public:
  LayerNormEmitter(const LayerNormDesc& desc, jit::KernelModule& module)
      : desc_(desc),
        lanes_(jit::JitEngine::instance().host().vector_lanes),
        block_(walked_block(desc, lanes_)),
        chunks_(jit::vector_chunks(block_, lanes_)),
        module_(module),
        b_(module.builder()) {
    for (const jit::VectorChunk& chunk : chunks_)
      accumulators_.push_back(module.entry_slot(jit::float_vector_type(b_, chunk.lanes), "acc"));
  }

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* position) { emit_position(position); }, "position");
  }

 private:
  using ChunkValue = std::function<Value*(Value* block, const jit::VectorChunk& chunk)>;
  using ChunkBody = std::function<void(Value* block, const jit::VectorChunk& chunk)>;

  Value* constant(int64_t value) { return b_.getInt64(value); }
  Value* splat(Value* scalar, int64_t lanes) { return b_.CreateVectorSplat(static_cast<unsigned>(lanes), scalar); }

  void emit_position(Value* position) {
    // Element (o, c, i) sits at ((o * C / x + c / x) * inner + i) * x + c % x.
    Value* o = b_.CreateUDiv(position, constant(desc_.inner));
    Value* i = b_.CreateURem(position, constant(desc_.inner));
    Value* first = b_.CreateNSWAdd(b_.CreateNSWMul(o, constant(desc_.channels * desc_.inner)),
                                   b_.CreateNSWMul(i, constant(block_)));
    Value* in = jit::element_address(b_, module_.input(), first);
    Value* out = jit::element_address(b_, module_.output(), first);
    const auto x_at = [&](Value* block, const jit::VectorChunk& chunk) {
      return jit::load_vector(b_, in, element_offset(block, chunk), chunk.lanes);
    };
    Value* inverse_count = llvm::ConstantFP::get(b_.getFloatTy(), 1.0 / static_cast<double>(desc_.channels));
    Value* mean = b_.CreateFMul(sum_over_channels(x_at), inverse_count);
    const auto centered = [&](Value* block, const jit::VectorChunk& chunk) {
      return b_.CreateFSub(x_at(block, chunk), splat(mean, chunk.lanes));
    };
    Value* variance = b_.CreateFMul(sum_over_channels([&](Value* block, const jit::VectorChunk& chunk) {
                                      Value* d = centered(block, chunk);
                                      return b_.CreateFMul(d, d);
                                    }),
                                    inverse_count);
    Value* epsilon = llvm::ConstantFP::get(b_.getFloatTy(), static_cast<double>(desc_.epsilon));
    Value* root = b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b_.CreateFAdd(variance, epsilon));
    Value* inverse_std = b_.CreateFDiv(llvm::ConstantFP::get(b_.getFloatTy(), 1.0), root);
    over_channels([&](Value* block, const jit::VectorChunk& chunk) {
      Value* channel = b_.CreateNSWAdd(b_.CreateNSWMul(block, constant(block_)), constant(chunk.offset));
      Value* scale = jit::load_vector(b_, module_.weight(), channel, chunk.lanes);
      Value* shift = jit::load_vector(b_, module_.bias(), channel, chunk.lanes);
      Value* normalized = b_.CreateFMul(centered(block, chunk), splat(inverse_std, chunk.lanes));
      jit::store_vector(b_, jit::fused_multiply_add(b_, normalized, scale, shift), out, element_offset(block, chunk));
    });
  }

  // Offset of a block's chunk from the position's first element: blocks are inner * x apart.
  Value* element_offset(Value* block, const jit::VectorChunk& chunk) {
    return b_.CreateNSWAdd(b_.CreateNSWMul(block, constant(desc_.inner * block_)), constant(chunk.offset));
  }

  // body(block, chunk) for every chunk of every channel block of the position.
  void over_channels(const ChunkBody& body) {
    jit::emit_loop(
        b_, 0, desc_.channels / block_, 1,
        [&](Value* block) {
          for (const jit::VectorChunk& chunk : chunks_) body(block, chunk);
        },
        "block");
  }

  // The sum of value(block, chunk) over the position's channels: one vector accumulator per
  // chunk of a block, reduced across lanes at the end.
  Value* sum_over_channels(const ChunkValue& value) {
    for (size_t k = 0; k < chunks_.size(); ++k) b_.CreateStore(jit::zero_vector(b_, chunks_[k].lanes), accumulators_[k]);
    over_channels([&](Value* block, const jit::VectorChunk& chunk) {
      const auto k = static_cast<size_t>(&chunk - chunks_.data());
      llvm::Type* type = jit::float_vector_type(b_, chunk.lanes);
      b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(type, accumulators_[k]), value(block, chunk)), accumulators_[k]);
    });
    Value* sum = llvm::ConstantFP::get(b_.getFloatTy(), 0.0);
    for (size_t k = 0; k < chunks_.size(); ++k) {
      Value* lanes = b_.CreateLoad(jit::float_vector_type(b_, chunks_[k].lanes), accumulators_[k]);
      // Reassociation lets the sum use a shuffle tree instead of a serial chain of adds.
      Value* reduced = b_.CreateFAddReduce(llvm::ConstantFP::get(b_.getFloatTy(), 0.0), lanes);
      llvm::cast<llvm::Instruction>(reduced)->setHasAllowReassoc(true);
      sum = b_.CreateFAdd(sum, reduced);
    }
    return sum;
  }

  const LayerNormDesc& desc_;
  int64_t lanes_;
  int64_t block_;
  std::vector<jit::VectorChunk> chunks_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  std::vector<Value*> accumulators_;  // one per chunk of a block
};

}  // namespace

void LayerNormDesc::validate() const {
  const auto require = [this](bool ok, const std::string& what) {
    if (!ok) throw KernelError("invalid layer_norm desc " + str() + ": " + what);
  };
  require(outer > 0 && channels > 0 && inner > 0, "extents must be positive");
  require(block > 0 && channels % block == 0,
          "channel block " + std::to_string(block) + " must divide the channel count " + std::to_string(channels));
  require(std::isfinite(epsilon) && epsilon >= 0.0F, "epsilon must be finite and not negative");
}

std::string LayerNormDesc::str() const {
  return "layer_norm_o" + std::to_string(outer) + "_c" + std::to_string(channels) + "_i" + std::to_string(inner) + "_x" +
         std::to_string(block) + "_eps" + std::to_string(epsilon);
}

Kernel compile_layer_norm(const LayerNormDesc& desc) {
  desc.validate();
  // Epsilon in hexadecimal: kernels of different epsilons must not share a cache key.
  char epsilon[32];
  std::snprintf(epsilon, sizeof epsilon, "%a", static_cast<double>(desc.epsilon));
  const std::string key = "layer_norm|o" + std::to_string(desc.outer) + "_c" + std::to_string(desc.channels) + "_i" +
                          std::to_string(desc.inner) + "_x" + std::to_string(desc.block) + "|" + epsilon;
  return Kernel(jit::cached_kernel(key, [&] {
    jit::KernelModule module("layer_norm");
    LayerNormEmitter(desc, module).emit();
    return ops::compile_operator(module, desc.positions(), {.weight = true, .bias = true});
  }));
}

}  // namespace layoutopt::kernels
