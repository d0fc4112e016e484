#include "kernel_check.h"

#include <doctest/doctest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "layoutopt/kernels/reference/conv2d.h"
#include "layoutopt/kernels/reference/host_tensor.h"
#include "layoutopt/layout/transform.h"
#include "support/tolerances.h"
#include "support/omp_threads.h"

namespace layoutopt::kernels::testing {

namespace {

int64_t product(const std::vector<int64_t>& shape) {
  int64_t total = 1;
  for (int64_t extent : shape) total *= extent;
  return total;
}

std::vector<float> random_tensor(int64_t size, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0F, 1.0F);
  std::vector<float> data(static_cast<size_t>(size));
  for (float& value : data) value = uniform(rng);
  return data;
}

}  // namespace

std::vector<float> relayout(const std::vector<float>& data, const std::vector<int64_t>& shape,
                            const layout::Layout& canonical, const layout::Layout& from, const layout::Layout& to) {
  return layout::LayoutTransform(shape, canonical, from, to).apply(data);
}

Conv2dDesc square_conv(int64_t channels, int64_t h, int64_t w, int64_t out_channels, int64_t k, int64_t stride,
                       int64_t pad) {
  Conv2dDesc d;
  d.in_channels = channels, d.in_h = h, d.in_w = w, d.out_channels = out_channels;
  d.kernel_h = d.kernel_w = k;
  d.stride_h = d.stride_w = stride;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = pad;
  return d;
}

Problem make_problem(const Conv2dDesc& desc, unsigned seed) {
  std::mt19937 rng(seed);
  Problem p;
  p.input_shape = {desc.batch, desc.in_channels, desc.in_h, desc.in_w};
  p.weight_shape = {desc.out_channels, desc.in_channels_per_group(), desc.kernel_h, desc.kernel_w};
  p.output_shape = {desc.batch, desc.out_channels, desc.out_h(), desc.out_w()};
  p.input = random_tensor(product(p.input_shape), rng);
  p.weight = random_tensor(product(p.weight_shape), rng);
  // The bias operand: the biases, then a prologue's scales and shifts (Conv2dDesc::bias_floats).
  p.bias = random_tensor(std::max(desc.out_channels, desc.bias_floats()), rng);
  p.residual = random_tensor(product(p.output_shape), rng);
  p.scale = random_tensor(desc.batch * desc.in_channels, rng);
  return p;
}

std::vector<float> reference_output(const Conv2dDesc& desc, const Problem& p) {
  std::vector<float> output(static_cast<size_t>(product(p.output_shape)));
  if (desc.input_scale)
    reference::conv2d_scaled(desc, p.input.data(), p.scale.data(), p.weight.data(), p.bias.data(), p.residual.data(),
                             output.data());
  else
    reference::conv2d(desc, p.input.data(), p.weight.data(), p.bias.data(), p.residual.data(), output.data());
  return output;
}

std::vector<float> run_blocked(const Kernel& kernel, const Problem& p, const BlockedLayouts& layouts, int ranges) {
  const layout::Layout oihw = layout::Layout::oihw();
  return run_packed(kernel, p, layouts, relayout(p.weight, p.weight_shape, oihw, oihw, layouts.weight), ranges);
}

namespace {

/// The problem's operands in `layouts` (weights as given), `call`ed on a NaN-filled output:
/// any element the kernel fails to write fails the comparison. The output comes back NCHW.
std::vector<float> run_with(const Problem& p, const BlockedLayouts& layouts, const std::vector<float>& weight,
                            const std::function<void(const KernelArgs&, std::vector<float>& output)>& call) {
  const layout::Layout nchw = layout::Layout::nchw();
  const std::vector<float> input = relayout(p.input, p.input_shape, nchw, nchw, layouts.input);
  const std::vector<float> residual = relayout(p.residual, p.output_shape, nchw, nchw, layouts.output);
  std::vector<float> output(static_cast<size_t>(product(p.output_shape)), std::nanf(""));
  call({input.data(), weight.data(), p.bias.data(), residual.data(), output.data(), p.scale.data()}, output);
  return relayout(output, p.output_shape, nchw, layouts.output, nchw);
}

}  // namespace

std::vector<float> run_packed(const Kernel& kernel, const Problem& p, const BlockedLayouts& layouts,
                              const std::vector<float>& weight, int ranges) {
  return run_with(p, layouts, weight, [&](const KernelArgs& args, std::vector<float>& /*output*/) {
    if (ranges <= 1) {
      kernel(args);
      return;
    }
    const int64_t items = kernel.work_items();
    for (int64_t r = 0; r < ranges; ++r) kernel.run_range(args, items * r / ranges, items * (r + 1) / ranges);
  });
}

std::vector<float> run_packed_in_team(const Kernel& kernel, const Problem& p, const BlockedLayouts& layouts,
                                      const std::vector<float>& weight, int threads) {
  return run_with(p, layouts, weight, [&](const KernelArgs& args, std::vector<float>& output) {
    const layoutopt::testing::OmpThreads team(threads);
    kernel(args);  // sizes the scratch for the team
    std::fill(output.begin(), output.end(), std::nanf(""));
#pragma omp parallel
    kernel(args, Team::calling);
  });
}

std::vector<Epilogue> all_epilogues() {
  const Activation activations[] = {Activation::None, Activation::Relu, Activation::Relu6};
  std::vector<Epilogue> epilogues;
  for (bool bias : {false, true})
    for (Activation act : activations)
      for (bool residual : {false, true})
        for (Activation post : activations)
          if (residual || post == Activation::None) epilogues.push_back({bias, act, residual, post});
  return epilogues;
}

double relative_difference(const std::vector<float>& expected, const std::vector<float>& actual) {
  const std::vector<int64_t> expected_shape{static_cast<int64_t>(expected.size())};
  const std::vector<int64_t> actual_shape{static_cast<int64_t>(actual.size())};
  reference::HostTensor want(expected_shape), got(actual_shape);
  want.data = expected;
  got.data = actual;
  return reference::max_relative_difference(want, got);
}

void check_relative(const std::vector<float>& expected, const std::vector<float>& actual, double bound,
                    const std::string& what) {
  const double difference = relative_difference(expected, actual);
  CHECK_MESSAGE(difference <= bound, what << ": max|diff| / max|expected| = " << difference << " > " << bound);
}

void check_against_reference(const Conv2dDesc& desc, const Kernel& kernel, const BlockedLayouts& layouts,
                             const std::string& what, unsigned seed, int ranges) {
  const Problem problem = make_problem(desc, seed);
  const std::vector<float> expected = reference_output(desc, problem);
  const std::vector<float> actual = run_blocked(kernel, problem, layouts, ranges);
  check_close(expected, actual, desc.in_channels_per_group() * desc.kernel_h * desc.kernel_w + 2, what);
}

void check_close(const std::vector<float>& expected, const std::vector<float>& actual, int64_t reduction_length,
                 const std::string& what) {
  REQUIRE(expected.size() == actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const double tolerance = layoutopt::testing::element_tolerance(expected[i], reduction_length);
    const bool close = std::fabs(static_cast<double>(actual[i]) - expected[i]) <= tolerance;  // false for NaN
    if (!close) {
      FAIL_CHECK(what << ": element " << i << " is " << actual[i] << ", expected " << expected[i]);
      return;
    }
  }
}

}  // namespace layoutopt::kernels::testing
