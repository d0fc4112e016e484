#pragma once
// doctest::Approx with a purely relative margin. The default Approx also allows about
// 1.2e-5 absolute, wider than the times in seconds (1e-5..1e-4) that tests compare, so it
// would accept any two of them. Not for comparisons with an expected 0 (use ==).

#include <doctest/doctest.h>

namespace layoutopt::testing {

/// Matches values within `relative` of `expected` (|a - e| < relative * max(|a|, |e|)).
inline doctest::Approx relative_approx(double expected, double relative = 1e-9) {
  return doctest::Approx(expected).epsilon(relative).scale(0);
}

}  // namespace layoutopt::testing
