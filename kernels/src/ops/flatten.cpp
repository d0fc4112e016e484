#include "layoutopt/kernels/flatten.h"

#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "ops/compile_operator.h"
#include "ops/stream_emitter.h"

namespace layoutopt::kernels {

void validate_flatten(const TensorDesc& input) {
  input.validate("flatten", input.str());
  if (input.height * input.width != 1 && input.block != 1)
    throw KernelError("invalid flatten desc " + input.str() +
                      ": NCHW[x]c with x > 1 flattens without moving data only for H = W = 1; convert the "
                      "input to NCHW first");
}

FlattenLayouts flatten_layouts(const TensorDesc& input) {
  validate_flatten(input);
  return {input.layout(), layout::Layout::nc().split('C', input.block)};
}

Kernel compile_flatten(const TensorDesc& input, const ElementwiseSchedule& schedule) {
  validate_flatten(input);
  validate_elementwise_schedule(schedule, "flatten");
  const ops::StreamShape shape = ops::whole_tensor(input);
  return Kernel(jit::cached_kernel("flatten|" + std::to_string(input.elements()) + "|" + schedule.str(), [&] {
    jit::KernelModule module("flatten");
    ops::emit_stream(module, shape, schedule, {},
                     [](llvm::IRBuilder<>&, const ops::VectorSite& site) { return site.input; });
    return ops::compile_operator(module, ops::stream_work_items(shape, schedule), {});
  }));
}

}  // namespace layoutopt::kernels
