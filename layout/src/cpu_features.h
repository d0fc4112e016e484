#pragma once
// Runtime ISA checks for kernel dispatch. The library is compiled for baseline x86-64 so the
// binary runs anywhere; wider kernels carry __attribute__((target(...))) and are only called
// when the running CPU (and OS) supports them. Setting LAYOUTOPT_BASELINE_ISA=1 in the
// environment forces the portable kernels, so tests cover them on any machine.

#include <cstdlib>

namespace layoutopt::layout::detail {

inline bool baseline_isa_forced() {
  static const bool forced = std::getenv("LAYOUTOPT_BASELINE_ISA") != nullptr;
  return forced;
}

inline bool has_avx512f() {
#if defined(__x86_64__)
  static const bool supported = __builtin_cpu_supports("avx512f") && !baseline_isa_forced();
  return supported;
#else
  return false;
#endif
}

inline bool has_avx2() {
#if defined(__x86_64__)
  static const bool supported = __builtin_cpu_supports("avx2") && !baseline_isa_forced();
  return supported;
#else
  return false;
#endif
}

}  // namespace layoutopt::layout::detail
