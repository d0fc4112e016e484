#pragma once
// Finishing an operator kernel: the non-convolution operators use the KernelArgs pointers
// for their own operands (batch norm: weight = scale, bias = shift; add: residual = second
// operand), so they declare which ones they read instead of deriving that from an Epilogue.

#include <cstdint>

#include "jit/kernel_module.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::ops {

/// Optional KernelArgs pointers an operator reads (input and output are always required).
struct OperandUse {
  bool weight = false;
  bool bias = false;
  bool residual = false;
};

/// JIT-compiles the module's function (see KernelModule::compile) and records `use`, so that
/// Kernel rejects calls missing one of those pointers.
[[nodiscard]] CompiledFunction compile_operator(jit::KernelModule& module, int64_t work_items, OperandUse use);

}  // namespace layoutopt::kernels::ops
