#pragma once
// Shared checking machinery of the kernels tests: random problems in canonical layouts, the
// reference result, running a JIT kernel on re-laid (blocked) copies, and the comparison.
//
// Tolerance: support/tolerances.h's element_tolerance, per element (check_close); for Winograd
// its relative bound on the whole output (check_relative).

#include <string>
#include <vector>

#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels::testing {

/// Copies a tensor of logical shape `shape` (in `canonical` order) from layout `from` to
/// layout `to`, with layout/'s transforms.
std::vector<float> relayout(const std::vector<float>& data, const std::vector<int64_t>& shape,
                            const layout::Layout& canonical, const layout::Layout& from, const layout::Layout& to);

/// A conv2d desc with a square k x k kernel, equal strides and equal padding on every side
/// (groups 1, no epilogue): what most kernel tests start from and then adjust.
Conv2dDesc square_conv(int64_t channels, int64_t h, int64_t w, int64_t out_channels, int64_t k, int64_t stride,
                       int64_t pad);

/// Tensors of one conv-like problem, all in canonical layouts (NCHW / OIHW / [O] / [N, C]).
struct Problem {
  std::vector<int64_t> input_shape, weight_shape, output_shape;
  std::vector<float> input, weight, bias, residual, scale;
};

/// Random problem for a conv2d desc (residual/bias/scale filled whether or not the desc uses them).
Problem make_problem(const Conv2dDesc& desc, unsigned seed);
/// Reference output, NCHW (reference::conv2d_scaled for a desc with an input scale).
std::vector<float> reference_output(const Conv2dDesc& desc, const Problem& problem);

/// Layouts a kernel expects for (input, weight, output); residual uses the output's.
struct BlockedLayouts {
  layout::Layout input, weight, output;
};

/// Runs `kernel` on blocked copies of `problem` and returns its output back in canonical
/// layout. With `ranges` > 1 the work items are run as that many serial run_range calls
/// (the way a caller might split them), otherwise through the parallel operator().
std::vector<float> run_blocked(const Kernel& kernel, const Problem& problem, const BlockedLayouts& layouts,
                               int ranges = 1);
/// As run_blocked, with the weights given as the kernel reads them (e.g. Winograd-transformed)
/// instead of re-laid from the problem's; layouts.weight is not used.
std::vector<float> run_packed(const Kernel& kernel, const Problem& problem, const BlockedLayouts& layouts,
                              const std::vector<float>& packed_weight, int ranges = 1);

/// As run_packed, but the kernel is called the way a network's shared team calls it: by
/// every thread of a team of `threads` (Team::calling), after a call of its own at that
/// thread count (which sizes its scratch) whose output is then NaN-filled again.
std::vector<float> run_packed_in_team(const Kernel& kernel, const Problem& problem, const BlockedLayouts& layouts,
                                      const std::vector<float>& packed_weight, int threads);

/// Runs `kernel` on a random problem of `desc` (make_problem with `seed`) laid out in
/// `layouts` and check_close-s its output against the reference, with the reduction length of
/// one output (the channels per group times the kernel's taps, plus bias and residual).
void check_against_reference(const Conv2dDesc& desc, const Kernel& kernel, const BlockedLayouts& layouts,
                             const std::string& what, unsigned seed, int ranges = 1);

/// Every distinct fused epilogue: bias or not, each activation, residual or not and, with a
/// residual, each post-residual activation (2 x 3 x 4 = 24 in all).
std::vector<Epilogue> all_epilogues();

/// max|actual - expected| / max|expected| (reference::max_relative_difference); infinite when
/// an element of `actual` is NaN (never written) or the sizes differ.
double relative_difference(const std::vector<float>& expected, const std::vector<float>& actual);

/// CHECKs relative_difference(expected, actual) <= `bound`, reporting it with `what`: for
/// kernels whose error scales with the output's magnitude, not each element's (Winograd).
void check_relative(const std::vector<float>& expected, const std::vector<float>& actual, double bound,
                    const std::string& what);

/// CHECKs every element against testing::element_tolerance; reports the first mismatch with `what`.
void check_close(const std::vector<float>& expected, const std::vector<float>& actual, int64_t reduction_length,
                 const std::string& what);

}  // namespace layoutopt::kernels::testing
