#pragma once
// What a kernel row of packed-group taps (PackedGroupsReduction) holds in vector registers
// besides its accumulators: the emitter decides from it whether the row's weights stay in
// registers, and the default schedule how many output columns a tile takes.

#include <cstdint>

namespace layoutopt::kernels::conv {

/// Whether a kernel row's c x kernel_w weight vectors stay in registers from one pixel to the
/// next: when they take at most half of them. Otherwise each FMA reads its weight from L1.
[[nodiscard]] bool packed_row_keeps_weights(int64_t group_channels, int64_t kernel_w, int64_t vector_registers);

/// Vector registers a kernel row of packed taps holds besides its accumulators: the weights
/// it keeps, one shuffle index per group channel where a group spans 128-bit lanes, and the
/// input vector with its spread.
[[nodiscard]] int64_t packed_row_registers(int64_t group_channels, int64_t kernel_w, int64_t vector_lanes,
                                           int64_t vector_registers);

/// Whether a group's spread moves floats between 128-bit lanes (8-channel groups in 16
/// lanes), which takes a variable permute and its index vector.
[[nodiscard]] bool spans_128_bit_lanes(int64_t group_channels, int64_t vector_lanes);

}  // namespace layoutopt::kernels::conv
