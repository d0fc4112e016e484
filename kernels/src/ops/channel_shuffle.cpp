#include "layoutopt/kernels/channel_shuffle.h"

#include <numeric>
#include <vector>

#include "jit/control_flow.h"
#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels {

namespace {

using llvm::Value;

class ShuffleEmitter {
 public:
  ShuffleEmitter(jit::KernelModule& module, const ChannelShuffleDesc& desc)
      : module_(module), b_(module.builder()), t_(desc.tensor), groups_(desc.groups) {}

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_row(item); }, "row");
  }

 private:
  Value* constant(int64_t value) { return b_.getInt64(value); }
  Value* lanes_constant(int64_t value) { return b_.CreateVectorSplat(static_cast<unsigned>(t_.block), constant(value)); }

  // Item (n, output block, row h): output row [n][block][h] gathers every pixel's channels.
  void emit_row(Value* item) {
    const int64_t x = t_.block, plane = t_.height * t_.width * x;
    Value* h = b_.CreateURem(item, constant(t_.height));
    Value* rest = b_.CreateUDiv(item, constant(t_.height));
    Value* block = b_.CreateURem(rest, constant(t_.channel_blocks()));
    Value* n = b_.CreateUDiv(rest, constant(t_.channel_blocks()));
    Value* source = lane_sources(block);
    Value* image = b_.CreateNSWMul(n, constant(t_.channels * t_.height * t_.width));
    Value* row = b_.CreateNSWAdd(image, b_.CreateNSWMul(h, constant(t_.width * x)));
    Value* out_row = b_.CreateNSWAdd(row, b_.CreateNSWMul(block, constant(plane)));
    llvm::Type* vector = llvm::FixedVectorType::get(b_.getFloatTy(), static_cast<unsigned>(x));
    jit::emit_loop(
        b_, 0, t_.width, 1,
        [&](Value* w) {
          Value* pixel = b_.CreateNSWAdd(row, b_.CreateNSWMul(w, constant(x)));
          Value* offsets = b_.CreateAdd(b_.CreateVectorSplat(static_cast<unsigned>(x), pixel), source);
          Value* addresses = b_.CreateGEP(b_.getFloatTy(), module_.input(), offsets);
          Value* gathered = b_.CreateMaskedGather(vector, addresses, llvm::Align(4));
          jit::store_vector(b_, gathered, module_.output(), b_.CreateNSWAdd(out_row, b_.CreateNSWMul(w, constant(x))));
        },
        "pixel");
  }

  // Per lane of output block `block`: where its input channel s sits relative to a pixel,
  // (s / x) * H * W * x + s % x, for output channel o = i * groups + j <- s = j * (C / groups) + i.
  Value* lane_sources(Value* block) {
    const int64_t x = t_.block;
    std::vector<uint64_t> lanes(static_cast<size_t>(x));
    std::iota(lanes.begin(), lanes.end(), uint64_t{0});
    Value* o = b_.CreateAdd(b_.CreateVectorSplat(static_cast<unsigned>(x), b_.CreateNSWMul(block, constant(x))),
                            llvm::ConstantDataVector::get(b_.getContext(), lanes));
    Value* s = b_.CreateAdd(b_.CreateMul(b_.CreateURem(o, lanes_constant(groups_)), lanes_constant(t_.channels / groups_)),
                            b_.CreateUDiv(o, lanes_constant(groups_)));
    return b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(s, lanes_constant(x)), lanes_constant(t_.height * t_.width * x)),
                        b_.CreateURem(s, lanes_constant(x)));
  }

  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  const TensorDesc& t_;
  int64_t groups_;
};

CompiledFunction build(const ChannelShuffleDesc& desc) {
  jit::KernelModule module("channel_shuffle");
  ShuffleEmitter(module, desc).emit();
  const TensorDesc& t = desc.tensor;
  return ops::compile_operator(module, t.batch * t.channel_blocks() * t.height, {});
}

}  // namespace

void ChannelShuffleDesc::validate() const {
  tensor.validate("channel_shuffle", str());
  if (groups < 1 || tensor.channels % groups != 0)
    throw KernelError("invalid channel_shuffle desc " + str() + ": groups must be positive and divide the " +
                      std::to_string(tensor.channels) + " channels");
}

std::string ChannelShuffleDesc::str() const { return "channel_shuffle_g" + std::to_string(groups) + "_" + tensor.str(); }

Kernel compile_channel_shuffle(const ChannelShuffleDesc& desc) {
  desc.validate();
  return Kernel(jit::cached_kernel(desc.str(), [&] { return build(desc); }));
}

}  // namespace layoutopt::kernels
