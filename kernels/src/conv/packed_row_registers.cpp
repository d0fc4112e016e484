#include "conv/packed_row_registers.h"

namespace layoutopt::kernels::conv {

namespace {
constexpr int64_t kFloatsPer128Bits = 4;
constexpr int64_t kLanesOf512Bits = 16;
}  // namespace

bool packed_row_keeps_weights(int64_t group_channels, int64_t kernel_w, int64_t vector_registers) {
  return 2 * group_channels * kernel_w <= vector_registers;
}

bool spans_128_bit_lanes(int64_t group_channels, int64_t vector_lanes) {
  return group_channels > kFloatsPer128Bits && vector_lanes == kLanesOf512Bits;
}

int64_t packed_row_registers(int64_t group_channels, int64_t kernel_w, int64_t vector_lanes, int64_t vector_registers) {
  const int64_t weights = packed_row_keeps_weights(group_channels, kernel_w, vector_registers) ? group_channels * kernel_w : 0;
  const int64_t indices = spans_128_bit_lanes(group_channels, vector_lanes) ? group_channels : 0;
  return weights + indices + 2;
}

}  // namespace layoutopt::kernels::conv
