#pragma once
// Size arithmetic on int64_t that refuses to wrap. Shapes come from files (ONNX, JSON
// graphs), so a tensor's byte size or an arena offset can exceed 64 bits; signed overflow is
// undefined behaviour, so every such sum and product goes through these and a size past
// int64 is a KernelError naming what overflowed, never a wrapped (negative or small) size.

#include <cstdint>
#include <string>
#include <string_view>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::network {

/// a * b. Throws KernelError "<what> overflows int64: a * b" when it does not fit.
[[nodiscard]] inline int64_t checked_mul(int64_t a, int64_t b, std::string_view what) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product))
    throw KernelError(std::string(what) + " overflows int64: " + std::to_string(a) + " * " + std::to_string(b));
  return product;
}

/// a + b. Throws KernelError "<what> overflows int64: a + b" when it does not fit.
[[nodiscard]] inline int64_t checked_add(int64_t a, int64_t b, std::string_view what) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    throw KernelError(std::string(what) + " overflows int64: " + std::to_string(a) + " + " + std::to_string(b));
  return sum;
}

}  // namespace layoutopt::kernels::network
