#pragma once
// The suite's fp32 tolerances, stated once. Every comparison of computed floats uses one of
// these; a test that needs a looser bound says why next to its own named constant.
//
// Two kinds of bound:
// - element-wise, for one kernel against a reference on random inputs in [-1, 1]: each output
//   is a sum of `reduction_length` products, and two fp32 summation orders differ by at most
//   about reduction_length * 2^-24 * sum|terms|, with sum|terms| <= reduction_length here and
//   typically sqrt(reduction_length); a wrong tap changes an output by ~1e-3 or more.
// - whole-output relative, max|actual - expected| / max|expected|, for networks and for
//   outputs compared against another runtime (torch, ONNX Runtime), whose summation order
//   and transcendental functions differ from ours.

#include <cmath>
#include <cstdint>

namespace layoutopt::testing {

/// Relative part of the element-wise bound: a few fp32 roundings on the output itself.
inline constexpr double kElementRelative = 1e-4;
/// Absolute part per summed product (~16x the worst-case reordering error of 2^-24 * K).
inline constexpr double kElementPerProduct = 1e-6;

/// |actual - expected| allowed for one output summing `reduction_length` products.
inline double element_tolerance(double expected, int64_t reduction_length) {
  return kElementRelative * std::fabs(expected) + kElementPerProduct * static_cast<double>(reduction_length);
}

/// max|diff| / max|ref| allowed for a network (or a model file) against an independent
/// runtime: the import contract of docs/results/onnx-coverage.md.
inline constexpr double kNetworkRelative = 1e-4;

/// max|diff| / max|ref| allowed between two of our own executions that differ only in
/// layouts and schedules (same ops, different blocking and summation order).
inline constexpr double kRescheduledRelative = 1e-4;

/// max|diff| / max|ref| allowed for a whole compiled network (tens of layers) against the
/// reference executor when its schedule may put Winograd F(4x4) on every eligible conv:
/// each such layer may add up to kWinogradF4Relative, and the errors compound through the
/// layers after it, so twice kRescheduledRelative.
inline constexpr double kCompiledNetworkRelative = 2e-4;

/// max|diff| / max|ref| allowed for Winograd F(m x m, 3 x 3) against the reference. Its
/// transforms (entries of B^T and A^T up to 8 for m = 4, G's 1/6 and 1/24) sum terms larger
/// than the direct products, so its error is a property of the whole tile and grows with m;
/// per element it can exceed the direct kernels' allowance on outputs near zero. Measured at
/// 256 and 512 input channels on 14 x 14 and 28 x 28 maps (winograd_accuracy_test.cpp, the
/// worst case of inputs and weights uniform in [-1, 1]): F(2x2) up to 8.7e-7, F(4x4) up to
/// 1.4e-5; the bounds allow about 4x that. Relative to the output's largest value the error
/// barely grows with the channels (F(4x4): 9.0e-6 at 256 on 14 x 14, 1.4e-5 at 512 on
/// 28 x 28), so the same bounds hold for the small problems of the other Winograd tests.
/// F(6x6) (B^T's 21/4, A^T's 32): up to 2.8e-5 on the same problems.
inline constexpr double kWinogradF2Relative = 4e-6;
inline constexpr double kWinogradF4Relative = 5e-5;
inline constexpr double kWinogradF6Relative = 1.2e-4;

/// The Winograd bound for output tiles of m x m (2, 4 or 6).
inline double winograd_relative(int64_t m) {
  return m <= 2 ? kWinogradF2Relative : m <= 4 ? kWinogradF4Relative : kWinogradF6Relative;
}

}  // namespace layoutopt::testing
