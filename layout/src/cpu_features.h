#pragma once
// Runtime ISA checks for kernel dispatch. The library is compiled for baseline x86-64 so the
// binary runs anywhere; wider kernels carry __attribute__((target(...))) and are only called
// when the running CPU (and OS) supports them, as the one detector (layoutopt/cpu) reports.
// Layout's own policy on top: LAYOUTOPT_BASELINE_ISA=1 in the environment forces the
// portable kernels, so tests cover them on any machine.

#include <cstdlib>

#include "layoutopt/cpu/features.h"

namespace layoutopt::layout::detail {

inline bool baseline_isa_forced() {
  static const bool forced = std::getenv("LAYOUTOPT_BASELINE_ISA") != nullptr;
  return forced;
}

inline bool has_avx512f() {
  static const bool supported = cpu::has_feature("avx512f") && !baseline_isa_forced();
  return supported;
}

inline bool has_avx2() {
  static const bool supported = cpu::has_feature("avx2") && !baseline_isa_forced();
  return supported;
}

}  // namespace layoutopt::layout::detail
