#include "ops/compile_operator.h"

namespace layoutopt::kernels::ops {

CompiledFunction compile_operator(jit::KernelModule& module, int64_t work_items, OperandUse use) {
  CompiledFunction compiled = module.compile(work_items, Epilogue{});
  compiled.needs_weight = use.weight;
  compiled.needs_bias = use.bias;
  compiled.needs_residual = use.residual;
  return compiled;
}

}  // namespace layoutopt::kernels::ops
