#pragma once
// The pooling kernel shared by max / average pool2d and global average pooling.
//
// Work item (n, channel block, output row): the window's rows are clipped to the input at
// run time (a kh loop with computed bounds), its columns at compile time: output columns are
// split like conv2d's (conv::plan_columns) into border tiles at constant positions, whose
// padding taps are dropped while emitting, and an interior run of tiles without checks.
// Each tile keeps one accumulator per (column, vector chunk of the channel block).

#include <string>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/pool2d.h"

namespace layoutopt::kernels::ops {

/// Emits and JIT-compiles the kernel for a valid desc and schedule; `kind` names the symbol.
[[nodiscard]] CompiledFunction compile_pool(const Pool2dDesc& desc, const Pool2dSchedule& schedule,
                                            const std::string& kind);

}  // namespace layoutopt::kernels::ops
