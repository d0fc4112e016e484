// Winograd's accuracy where networks use it: 256 and 512 input channels on 14 x 14 and
// 28 x 28 maps (ResNet's and VGG's later stages), every tile size the kernel offers, against
// the double-accumulating reference. The error is stated as max|winograd - reference| /
// max|reference| and bounded per tile size by support/tolerances.h's winograd_relative(m).
//
// Output channels stay at 32: each output's error depends on its own reduction (in_channels
// x 9 taps through the tile transforms), not on how many outputs there are, and fewer keep
// the reference's run short.

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conv/winograd_matrices.h"
#include "kernel_check.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "support/tolerances.h"

namespace {

using namespace layoutopt::kernels;

/// The Winograd kernel's default config for `desc` with tile size `m`.
int64_t config_with_tile(const TunableOp& op, int64_t m) {
  std::map<std::string, int64_t> knobs = op.knobs(op.default_index());
  knobs["tile_m"] = m;
  const std::optional<int64_t> index = op.index_of(knobs);
  REQUIRE(index.has_value());
  return *index;
}

/// max|actual - expected| / max|expected| of F(m x m) on `desc` against the reference.
double winograd_relative_error(const Conv2dDesc& desc, const testing::Problem& problem,
                               const std::vector<float>& expected, int64_t m) {
  const TunableOp op = TunableOp::winograd_conv2d(desc);
  const int64_t index = config_with_tile(op, m);
  const OpLayouts layouts = op.layouts(index);
  const std::vector<float> actual = testing::run_packed(op.compile(index), problem, {layouts.input, layouts.weight, layouts.output},
                                                        op.pack_weights(index, problem.weight));
  return testing::relative_difference(expected, actual);
}

}  // namespace

TEST_CASE("winograd's relative error at 256 and 512 channels stays within its bound for every tile size") {
  for (int64_t channels : {256, 512})
    for (int64_t size : {14, 28}) {
      const Conv2dDesc desc = testing::square_conv(channels, size, size, 32, 3, 1, 1);
      const testing::Problem problem = testing::make_problem(desc, 5);
      const std::vector<float> expected = testing::reference_output(desc, problem);
      for (int64_t m : conv::winograd_tile_sizes()) {
        const double error = winograd_relative_error(desc, problem, expected, m);
        MESSAGE("F(" << m << "x" << m << ", 3x3), " << channels << " channels, " << size << "x" << size
                     << ": max|diff| / max|ref| = " << error);
        CHECK(error <= layoutopt::testing::winograd_relative(m));
      }
    }
}
