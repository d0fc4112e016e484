#include "layoutopt/kernels/elementwise_binary.h"

#include "jit/kernel_cache.h"
#include "jit/vector_ops.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

namespace {

llvm::Value* apply(llvm::IRBuilder<>& builder, BinaryOp op, llvm::Value* a, llvm::Value* b) {
  return op == BinaryOp::add ? builder.CreateFAdd(a, b) : builder.CreateFMul(a, b);
}

ops::StreamShape shape_of(const ElementwiseBinaryDesc& desc) {
  return desc.broadcast_channels ? ops::channel_planes(desc.tensor) : ops::whole_tensor(desc.tensor);
}

CompiledFunction build(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule) {
  jit::KernelModule module(to_string(desc.op));
  const ops::StreamShape shape = shape_of(desc);
  if (desc.broadcast_channels) {
    ops::emit_stream(module, shape, schedule, {{module.weight(), ops::ChannelIndex::batch_channel}},
                     [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
                       return apply(builder, desc.op, site.input, site.channel[0]);
                     });
    return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {.weight = true});
  }
  llvm::Value* other = module.residual();
  ops::emit_stream(module, shape, schedule, {}, [&](llvm::IRBuilder<>& builder, const ops::VectorSite& site) {
    const auto lanes = static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(site.input->getType())->getNumElements());
    return apply(builder, desc.op, site.input, jit::load_vector(builder, other, site.offset, lanes));
  });
  return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {.residual = true});
}

}  // namespace

const char* to_string(BinaryOp op) { return op == BinaryOp::add ? "add" : "mul"; }

void ElementwiseBinaryDesc::validate() const { tensor.validate(to_string(op), str()); }

std::string ElementwiseBinaryDesc::str() const {
  return std::string(to_string(op)) + (broadcast_channels ? "_bcast_" : "_") + tensor.str();
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
