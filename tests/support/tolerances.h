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

}  // namespace layoutopt::testing
