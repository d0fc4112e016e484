#include "layoutopt/kernels/resize.h"

#include <sstream>
#include <vector>

#include "jit/control_flow.h"
#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/resize.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels {

namespace {

using llvm::Value;

/// One axis's taps as the kernel reads them: input index tables and the weight of `high`.
struct AxisTables {
  Value* low = nullptr;
  Value* high = nullptr;
  Value* weight = nullptr;
};

AxisTables axis_tables(jit::KernelModule& module, const std::vector<reference::ResizeTap>& taps,
                       const std::string& axis) {
  std::vector<int64_t> low, high;
  std::vector<float> weight;
  for (const reference::ResizeTap& tap : taps) {
    low.push_back(tap.low);
    high.push_back(tap.high);
    weight.push_back(static_cast<float>(tap.weight));
  }
  return {module.constant_table(low, axis + "_low"), module.constant_table(high, axis + "_high"),
          module.constant_table(weight, axis + "_weight")};
}

class ResizeEmitter {
 public:
  ResizeEmitter(jit::KernelModule& module, const ResizeDesc& desc)
      : module_(module), b_(module.builder()), in_(desc.input), out_(desc.output()),
        linear_(desc.attrs.mode == graph::ResizeMode::linear),
        rows_(axis_tables(module, reference::resize_taps(desc.attrs, in_.height, out_.height, desc.attrs.scale_h),
                          "rows")),
        columns_(axis_tables(module, reference::resize_taps(desc.attrs, in_.width, out_.width, desc.attrs.scale_w),
                             "columns")) {}

  void emit() {
    jit::emit_loop(
        b_, module_.begin(), module_.end(), 1, [this](Value* item) { emit_row(item); }, "row");
  }

 private:
  Value* constant(int64_t value) { return b_.getInt64(value); }

  Value* index_at(Value* table, Value* at) {
    return b_.CreateLoad(b_.getInt64Ty(), b_.CreateGEP(b_.getInt64Ty(), table, at));
  }
  Value* weight_at(Value* table, Value* at) {
    Value* weight = b_.CreateLoad(b_.getFloatTy(), b_.CreateGEP(b_.getFloatTy(), table, at));
    return b_.CreateVectorSplat(static_cast<unsigned>(in_.block), weight);
  }
  // low + weight * (high - low): a zero weight gives `low` exactly.
  Value* blend(Value* low, Value* high, Value* weight) {
    return jit::fused_multiply_add(b_, weight, b_.CreateFSub(high, low), low);
  }

  // Item (n, channel block, output row oh): every output pixel of that row of the block.
  void emit_row(Value* item) {
    const int64_t x = in_.block;
    Value* oh = b_.CreateURem(item, constant(out_.height));
    Value* plane_index = b_.CreateUDiv(item, constant(out_.height));  // n * channel blocks + block
    Value* in_plane = b_.CreateNSWMul(plane_index, constant(in_.height * in_.width * x));
    Value* out_row = b_.CreateNSWAdd(b_.CreateNSWMul(plane_index, constant(out_.height * out_.width * x)),
                                     b_.CreateNSWMul(oh, constant(out_.width * x)));
    auto input_row = [&](Value* table) {
      return b_.CreateNSWAdd(in_plane, b_.CreateNSWMul(index_at(table, oh), constant(in_.width * x)));
    };
    Value* top = input_row(rows_.low);
    Value* bottom = linear_ ? input_row(rows_.high) : nullptr;  // nearest reads one row
    Value* row_weight = linear_ ? weight_at(rows_.weight, oh) : nullptr;
    jit::emit_loop(
        b_, 0, out_.width, 1,
        [&](Value* ow) {
          Value* left = b_.CreateNSWMul(index_at(columns_.low, ow), constant(x));
          auto pixel = [&](Value* row, Value* column) {
            return jit::load_vector(b_, module_.input(), b_.CreateNSWAdd(row, column), x);
          };
          Value* value = pixel(top, left);
          if (linear_) {
            Value* right = b_.CreateNSWMul(index_at(columns_.high, ow), constant(x));
            Value* column_weight = weight_at(columns_.weight, ow);
            Value* upper = blend(value, pixel(top, right), column_weight);
            Value* lower = blend(pixel(bottom, left), pixel(bottom, right), column_weight);
            value = blend(upper, lower, row_weight);
          }
          jit::store_vector(b_, value, module_.output(), b_.CreateNSWAdd(out_row, b_.CreateNSWMul(ow, constant(x))));
        },
        "pixel");
  }

  jit::KernelModule& module_;
  llvm::IRBuilder<>& b_;
  TensorDesc in_, out_;
  bool linear_;
  AxisTables rows_, columns_;
};

CompiledFunction build(const ResizeDesc& desc) {
  jit::KernelModule module("resize");
  ResizeEmitter(module, desc).emit();
  const TensorDesc out = desc.output();
  return ops::compile_operator(module, out.batch * out.channel_blocks() * out.height, {});
}

}  // namespace

TensorDesc ResizeDesc::output() const {
  TensorDesc out = input;
  out.height = attrs.size.h;
  out.width = attrs.size.w;
  return out;
}

void ResizeDesc::validate() const {
  input.validate("resize", str());
  if (attrs.size.h < 1 || attrs.size.w < 1)
    throw KernelError("invalid resize desc " + str() + ": the output size must be positive");
}

std::string ResizeDesc::str() const {
  std::ostringstream text;
  text.precision(17);
  text << "resize_" << (attrs.mode == graph::ResizeMode::linear ? "linear" : "nearest") << "_t"
       << static_cast<int>(attrs.coordinates) << "_r" << static_cast<int>(attrs.rounding) << "_h" << attrs.size.h
       << "_w" << attrs.size.w << "_s" << attrs.scale_h << "x" << attrs.scale_w << "_" << input.str();
  return text.str();
}

Kernel compile_resize(const ResizeDesc& desc) {
  desc.validate();
  return Kernel(jit::cached_kernel(desc.str(), [&] { return build(desc); }));
}

}  // namespace layoutopt::kernels
