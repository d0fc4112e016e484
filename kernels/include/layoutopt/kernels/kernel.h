#pragma once
// The Kernel type lives in the runtime (layoutopt/runtime/kernel.h), which runs both JIT and
// ahead-of-time compiled networks; the kernels library names it in its own namespace.

#include "layoutopt/runtime/kernel.h"

namespace layoutopt::kernels {

using runtime::CompiledFunction;
using runtime::Kernel;
using runtime::KernelArgs;
using runtime::KernelFunction;
using runtime::KernelScratch;
using runtime::KernelStage;
using runtime::kKernelPointers;
using runtime::StageOperand;
using runtime::Team;

}  // namespace layoutopt::kernels
