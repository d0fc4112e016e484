#include "layoutopt/kernels/elementwise_binary.h"

#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

namespace {

// max / min select as std::max / std::min do (the first operand on ties and NaN), so the
// kernels match the reference bit for bit.
llvm::Value* apply(llvm::IRBuilder<>& builder, BinaryOp op, llvm::Value* a, llvm::Value* b) {
  switch (op) {
    case BinaryOp::add:
      return builder.CreateFAdd(a, b);
    case BinaryOp::sub:
      return builder.CreateFSub(a, b);
    case BinaryOp::mul:
      return builder.CreateFMul(a, b);
    case BinaryOp::div:
      return builder.CreateFDiv(a, b);
    case BinaryOp::max:
      return builder.CreateSelect(builder.CreateFCmpOLT(a, b), b, a);
    case BinaryOp::min:
      return builder.CreateSelect(builder.CreateFCmpOLT(b, a), b, a);
    case BinaryOp::prelu: {
      llvm::Value* negative = builder.CreateFCmpOLT(a, llvm::ConstantFP::get(a->getType(), 0.0));
      return builder.CreateSelect(negative, builder.CreateFMul(a, b), a);
    }
  }
  return a;
}

llvm::Value* apply_in_order(llvm::IRBuilder<>& builder, const ElementwiseBinaryDesc& desc, llvm::Value* tensor,
                            llvm::Value* other) {
  return desc.other_first ? apply(builder, desc.op, other, tensor) : apply(builder, desc.op, tensor, other);
}

ops::StreamShape shape_of(const ElementwiseBinaryDesc& desc) {
  return desc.other == BinaryOperand::same_shape ? ops::whole_tensor(desc.tensor) : ops::channel_planes(desc.tensor);
}

CompiledFunction build(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule) {
  jit::KernelModule module(to_string(desc.op));
  const ops::StreamShape shape = shape_of(desc);
  if (desc.other != BinaryOperand::same_shape) {
    const ops::ChannelIndex index =
        desc.other == BinaryOperand::channel ? ops::ChannelIndex::channel : ops::ChannelIndex::batch_channel;
    ops::emit_stream(module, shape, schedule, {{module.weight(), index}},
                     [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
                       return apply_in_order(builder, desc, site.input, site.channel[0]);
                     });
    return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {.weight = true});
  }
  llvm::Value* other = module.residual();
  ops::emit_stream(module, shape, schedule, {}, [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
    const auto lanes = static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(site.input->getType())->getNumElements());
    return apply_in_order(builder, desc, site.input, jit::load_vector(builder, other, site.offset, lanes));
  });
  return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {.residual = true});
}

const char* operand_text(BinaryOperand operand) {
  switch (operand) {
    case BinaryOperand::same_shape:
      return "_";
    case BinaryOperand::batch_channel:
      return "_bcast_";
    case BinaryOperand::channel:
      return "_channel_";
  }
  return "_";
}

}  // namespace

const char* to_string(BinaryOp op) {
  switch (op) {
    case BinaryOp::add:
      return "add";
    case BinaryOp::sub:
      return "sub";
    case BinaryOp::mul:
      return "mul";
    case BinaryOp::div:
      return "div";
    case BinaryOp::max:
      return "max";
    case BinaryOp::min:
      return "min";
    case BinaryOp::prelu:
      return "prelu";
  }
  return "?";
}

void ElementwiseBinaryDesc::validate() const { tensor.validate(to_string(op), str()); }

std::string ElementwiseBinaryDesc::str() const {
  return std::string(to_string(op)) + (other_first ? "_swapped" : "") + operand_text(other) + tensor.str();
}

ConfigSpace elementwise_binary_space(const ElementwiseBinaryDesc& desc) {
  desc.validate();
  return elementwise_space(shape_of(desc).length);
}

ElementwiseBinaryLayouts elementwise_binary_layouts(const ElementwiseBinaryDesc& desc) {
  desc.validate();
  return {desc.tensor.layout(), desc.tensor.layout(), desc.tensor.layout()};
}

Kernel compile_elementwise_binary(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule) {
  desc.validate();
  validate_elementwise_schedule(schedule, to_string(desc.op));
  return Kernel(
      jit::cached_kernel("binary|" + desc.str() + "|" + schedule.str(), [&] { return build(desc, schedule); }));
}

}  // namespace layoutopt::kernels
