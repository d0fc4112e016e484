#pragma once
// KernelError lives in the runtime (layoutopt/runtime/error.h), which raises it too; the
// kernels library names it in its own namespace.

#include "layoutopt/runtime/error.h"

namespace layoutopt::kernels {

using runtime::KernelError;

}  // namespace layoutopt::kernels
