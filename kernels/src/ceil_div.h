#pragma once
// Integer division rounding up: how many tiles, blocks or groups of b cover a extents.

#include <cstdint>

namespace layoutopt::kernels {

/// ceil(a / b) for a >= 0, b > 0.
[[nodiscard]] constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace layoutopt::kernels
