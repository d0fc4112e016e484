#pragma once
// Running a blocked concat: one copy kernel per input (layoutopt/kernels/concat.h compiles
// them), each writing its channel slice of the whole output.

#include <cstdint>
#include <span>
#include <vector>

#include "layoutopt/runtime/kernel.h"

namespace layoutopt::runtime {

/// Runs the copy kernels one after another, each parallel over its work items (on `team`),
/// skipping inputs that already sit at their slice (input pointer == output + slice offset;
/// pass concat_slice_offsets, or nothing to copy every input). Throws KernelError when the
/// number of inputs or offsets differs from the number of kernels.
void run_concat(const std::vector<Kernel>& kernels, std::span<const float* const> inputs, float* output,
                std::span<const int64_t> slice_offsets = {}, Team team = Team::own);

}  // namespace layoutopt::runtime
