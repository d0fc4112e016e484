#pragma once
// PageBlock lives in the runtime (layoutopt/runtime/page_block.h); the kernels library names
// it in its own namespace.

#include "layoutopt/runtime/page_block.h"

namespace layoutopt::kernels {

using runtime::PageBlock;

}  // namespace layoutopt::kernels
