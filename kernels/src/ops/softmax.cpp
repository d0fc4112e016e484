#include "layoutopt/kernels/softmax.h"

#include <functional>
#include <limits>

#include "jit/control_flow.h"
#include "jit/jit_engine.h"
#include "jit/kernel_cache.h"
#include "jit/math_ir.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels {

namespace {

using llvm::Value;

class SoftmaxEmitter {
 public:
  SoftmaxEmitter(int64_t channels, jit::KernelModule& module)
      : channels_(channels),
        lanes_(jit::JitEngine::instance().host().vector_lanes),
        module_(module),
        b_(module.builder()),
        acc_(module.entry_slot(jit::float_vector_type(b_, lanes_), "acc")) {}

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* row) { emit_row(row); }, "row");
  }

 private:
  using VectorBody = std::function<void(Value* offset, int64_t lanes)>;
  using Combine = std::function<Value*(Value* acc, Value* value)>;
  using Reduce = std::function<Value*(Value* vector)>;
  using Produce = std::function<Value*(Value* offset, int64_t lanes)>;

  void emit_row(Value* row) {
    Value* first = b_.CreateNSWMul(row, b_.getInt64(channels_));
    Value* in = jit::element_address(b_, module_.input(), first);
    Value* out = jit::element_address(b_, module_.output(), first);
    // Subtracting the maximum keeps exp from overflowing; the result is unchanged.
    Value* max = reduce_row(
        -std::numeric_limits<float>::infinity(),
        [&](Value* acc, Value* v) { return b_.CreateSelect(b_.CreateFCmpOGT(v, acc), v, acc); },
        [&](Value* v) { return b_.CreateFPMaxReduce(v); },
        [&](Value* offset, int64_t lanes) { return jit::load_vector(b_, in, offset, lanes); });
    Value* sum = reduce_row(
        0.0F, [&](Value* acc, Value* v) { return b_.CreateFAdd(acc, v); }, [&](Value* v) { return sum_lanes(v); },
        [&](Value* offset, int64_t lanes) {
          Value* v = jit::load_vector(b_, in, offset, lanes);
          Value* e = jit::emit_exp(b_, b_.CreateFSub(v, b_.CreateVectorSplat(static_cast<unsigned>(lanes), max)));
          jit::store_vector(b_, e, out, offset);  // scaled by 1 / sum in the last pass
          return e;
        });
    Value* inverse = b_.CreateFDiv(llvm::ConstantFP::get(b_.getFloatTy(), 1.0), sum);
    sweep([&](Value* offset, int64_t lanes) {
      Value* e = jit::load_vector(b_, out, offset, lanes);
      jit::store_vector(b_, b_.CreateFMul(e, b_.CreateVectorSplat(static_cast<unsigned>(lanes), inverse)), out, offset);
    });
  }

  // Combines produce(offset, lanes) over the row into one scalar: full vectors into a
  // vector accumulator, the narrower tail vector reduced on its own.
  Value* reduce_row(float identity, const Combine& combine, const Reduce& reduce, const Produce& produce) {
    b_.CreateStore(llvm::ConstantFP::get(jit::float_vector_type(b_, lanes_), identity), acc_);
    Value* tail = nullptr;
    sweep([&](Value* offset, int64_t lanes) {
      Value* v = produce(offset, lanes);
      if (lanes == lanes_)
        b_.CreateStore(combine(b_.CreateLoad(v->getType(), acc_), v), acc_);
      else
        tail = reduce(v);
    });
    Value* result = reduce(b_.CreateLoad(jit::float_vector_type(b_, lanes_), acc_));
    return tail == nullptr ? result : combine(result, tail);
  }

  // body(offset, lanes) over the row: a loop of full vectors, then one narrower tail vector.
  void sweep(const VectorBody& body) {
    const int64_t full = channels_ / lanes_;
    jit::emit_loop(
        b_, 0, full, 1, [&](Value* v) { body(b_.CreateNSWMul(v, b_.getInt64(lanes_)), lanes_); }, "vector");
    if (channels_ % lanes_ != 0) body(b_.getInt64(full * lanes_), channels_ % lanes_);
  }

  Value* sum_lanes(Value* v) {
    // Reassociation lets the sum use a shuffle tree instead of a serial chain of adds.
    Value* sum = b_.CreateFAddReduce(llvm::ConstantFP::get(b_.getFloatTy(), 0.0), v);
    llvm::cast<llvm::Instruction>(sum)->setHasAllowReassoc(true);
    return sum;
  }

  int64_t channels_;
  int64_t lanes_;
  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  Value* acc_;  // vector accumulator of the current pass
};

}  // namespace

void SoftmaxDesc::validate() const {
  const auto require = [this](bool ok, const std::string& what) {
    if (!ok) throw KernelError("invalid softmax desc " + str() + ": " + what);
  };
  require(batch > 0 && channels > 0, "batch and channels must be positive");
  require(block > 0 && channels % block == 0,
          "channel block " + std::to_string(block) + " must divide the channel count " + std::to_string(channels));
}

std::string SoftmaxDesc::str() const {
  return "softmax_n" + std::to_string(batch) + "_c" + std::to_string(channels) + "_x" + std::to_string(block);
}

SoftmaxLayouts softmax_layouts(const SoftmaxDesc& desc) {
  desc.validate();
  const layout::Layout blocked = layout::Layout::nc().split('C', desc.block);
  return {blocked, blocked};
}

Kernel compile_softmax(const SoftmaxDesc& desc) {
  desc.validate();
  // Keyed without the block: the memory, hence the code, is the same for every block.
  const std::string key = "softmax|n" + std::to_string(desc.batch) + "_c" + std::to_string(desc.channels);
  return Kernel(jit::cached_kernel(key, [&] {
    jit::KernelModule module("softmax");
    SoftmaxEmitter(desc.channels, module).emit();
    return ops::compile_operator(module, desc.batch, {});
  }));
}

}  // namespace layoutopt::kernels
