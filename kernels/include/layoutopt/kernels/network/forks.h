#pragma once
// Forks of a compiled network (stretches of steps run side by side, one thread per lane):
// the runtime's data and planner, as the kernels library's users name them, like KernelError.

#include "layoutopt/runtime/fork.h"

namespace layoutopt::kernels {

using runtime::Fork;
using runtime::ForkCosts;
using runtime::plan_forks;

}  // namespace layoutopt::kernels
