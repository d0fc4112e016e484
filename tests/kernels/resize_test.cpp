// The blocked resize kernel against the reference resize (which follows ONNX's definition):
// every mode, coordinate transformation and nearest rounding torch and ONNX files use, up-
// and down-sampling, in every channel block.

#include "layoutopt/kernels/resize.h"

#include <doctest/doctest.h>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/resize.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;
using layoutopt::graph::NearestRounding;
using layoutopt::graph::Resize;
using layoutopt::graph::ResizeCoordinates;
using layoutopt::graph::ResizeMode;

Resize resize_to(ResizeMode mode, ResizeCoordinates coordinates, int64_t in_h, int64_t in_w, int64_t out_h,
                 int64_t out_w, NearestRounding rounding = NearestRounding::floor) {
  Resize r{mode, coordinates, rounding, {out_h, out_w}};
  r.scale_h = static_cast<double>(out_h) / static_cast<double>(in_h);
  r.scale_w = static_cast<double>(out_w) / static_cast<double>(in_w);
  return r;
}

void check_in_every_block(const std::vector<int64_t>& shape, const Resize& attrs) {
  const HostTensor x = random_tensor(shape, 31);
  const HostTensor expected = reference::resize(x, attrs);
  for (int64_t block : blocks_dividing(shape[1])) {
    const ResizeDesc desc{tensor_of(shape, block), attrs};
    const std::vector<float> in = to_layout(x, desc.input.layout());
    std::vector<float> out = nan_buffer(desc.output().elements());
    run_kernel(compile_resize(desc), {.input = in.data(), .output = out.data()}, 3);
    const HostTensor actual = from_layout(out, desc.output().shape(), desc.output().layout());
    if (attrs.mode == ResizeMode::nearest) check_exact(expected, actual, desc.str());
    else check_close(expected, actual, 1e-6, 1e-6, desc.str());  // float blend vs the reference's double
  }
}

}  // namespace

TEST_CASE("nearest resize copies exactly, in every block and rounding") {
  for (NearestRounding rounding : {NearestRounding::floor, NearestRounding::round_prefer_floor,
                                   NearestRounding::round_prefer_ceil, NearestRounding::ceil}) {
    check_in_every_block({1, 16, 5, 7}, resize_to(ResizeMode::nearest, ResizeCoordinates::asymmetric, 5, 7, 10, 14,
                                                  rounding));
    check_in_every_block({2, 8, 6, 6}, resize_to(ResizeMode::nearest, ResizeCoordinates::half_pixel, 6, 6, 4, 9,
                                                 rounding));
  }
}

TEST_CASE("linear resize matches the reference for every coordinate transformation, up and down") {
  for (ResizeCoordinates coordinates : {ResizeCoordinates::half_pixel, ResizeCoordinates::pytorch_half_pixel,
                                        ResizeCoordinates::align_corners, ResizeCoordinates::asymmetric}) {
    check_in_every_block({1, 16, 7, 5}, resize_to(ResizeMode::linear, coordinates, 7, 5, 28, 20));  // fcn's 8x
    check_in_every_block({1, 8, 9, 9}, resize_to(ResizeMode::linear, coordinates, 9, 9, 4, 1));     // down, to 1
  }
}

TEST_CASE("resize descs name every attribute and refuse a bad size") {
  const Resize up = resize_to(ResizeMode::linear, ResizeCoordinates::half_pixel, 4, 4, 8, 8);
  Resize corners = up;
  corners.coordinates = ResizeCoordinates::align_corners;
  CHECK(ResizeDesc{{1, 16, 4, 4, 16}, up}.str() != ResizeDesc{{1, 16, 4, 4, 16}, corners}.str());
  CHECK(ResizeDesc{{1, 16, 4, 4, 16}, up}.output().shape() == std::vector<int64_t>{1, 16, 8, 8});
  Resize empty = up;
  empty.size = {0, 8};
  CHECK_THROWS_WITH_AS(compile_resize({{1, 16, 4, 4, 16}, empty}), doctest::Contains("output size must be positive"),
                       KernelError);
}
