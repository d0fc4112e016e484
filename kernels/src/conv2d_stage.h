#pragma once
// The direct conv2d kernel as one compiled stage, for multi-stage kernels that run it on
// their own intermediates (the Winograd product on V and M).

#include <cstdint>
#include <memory>

#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

/// Floats of padding after each group's channel planes of a grouped conv's input and output
/// (DirectConvGeometry::in_group_pad, out_group_pad).
struct GroupPadding {
  int64_t input = 0, output = 0;
};

/// compile_conv2d's function, reading and storing with `padding` between groups. Padding
/// needs groups of whole blocks that are read in the reduction's block (no load_bn) and not
/// packed (asserted).
[[nodiscard]] std::shared_ptr<const CompiledFunction> compile_conv2d_stage(const Conv2dDesc& desc,
                                                                           const Conv2dSchedule& schedule,
                                                                           GroupPadding padding = {});

}  // namespace layoutopt::kernels
