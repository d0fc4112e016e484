#pragma once
// The two data-side stages of a Winograd convolution, emitted with LLVM (see
// winograd_geometry.h for the layouts). Both work on rows of tiles (a band's part of a row),
// vectorized over the channel block, with the transform matrices' coefficients folded into
// the code (a +-1 becomes an add or subtract, a 0 nothing).
//  - input transform: work items (n, band, input block, tile row the band touches); reads the
//    input (dilation apart, at the tile origins of winograd_axis.h), zero outside it
//    (padding, and the overhang of the last tiles), writes V;
//  - output transform: work items (n, band, output block, tile row the band touches); reads M,
//    applies the fused epilogue (bias, activation, residual, activation) and writes the
//    outputs that exist.

#include "conv/winograd_geometry.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::conv {

[[nodiscard]] CompiledFunction compile_winograd_input_transform(const WinogradGeometry& geometry);
[[nodiscard]] CompiledFunction compile_winograd_output_transform(const WinogradGeometry& geometry);

}  // namespace layoutopt::kernels::conv
