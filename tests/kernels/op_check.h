#pragma once
// Checking machinery of the non-convolution operator tests: random canonical tensors,
// moving them into and out of blocked layouts (layout/'s transforms) and comparisons.
//
// Tolerances (fp32): data movement, max pooling, relu / relu6 and add / mul compute exactly
// what the reference computes, so they are compared exactly. Averages, sigmoid and softmax
// use a relative tolerance of 1e-5 (their inputs are chosen so nothing cancels: averages
// run on positive data); batch norm adds 1e-5 absolute, because its result may cancel
// (x * scale + shift) and the folded coefficients are rounded to fp32.

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/reference/host_tensor.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels::testing {

using reference::HostTensor;

/// Canonical (NCHW / NC) tensor, uniform in [low, high].
HostTensor random_tensor(std::vector<int64_t> shape, unsigned seed, float low = -1.0F, float high = 1.0F);
/// The tensor's data in `layout` (from its canonical order).
std::vector<float> to_layout(const HostTensor& tensor, const layout::Layout& layout);
/// Data in `layout` back to a canonical tensor of `shape`.
HostTensor from_layout(const std::vector<float>& data, std::vector<int64_t> shape, const layout::Layout& layout);
/// An output buffer full of NaN: any element a kernel fails to write fails the comparison.
std::vector<float> nan_buffer(int64_t elements);

/// Runs `kernel` as `ranges` serial run_range calls when ranges > 1, else through operator().
void run_kernel(const Kernel& kernel, const KernelArgs& args, int ranges = 1);

/// Bitwise-equal values (NaN never equals); reports the first mismatch with `what`.
void check_exact(const HostTensor& expected, const HostTensor& actual, const std::string& what);
/// |actual - expected| <= relative * |expected| + absolute.
void check_close(const HostTensor& expected, const HostTensor& actual, double relative, double absolute,
                 const std::string& what);

/// Channel blocks of the usual candidates {1, 4, 8, 16, 32} that divide `channels`.
std::vector<int64_t> blocks_dividing(int64_t channels);
/// The NCHW[block]c tensor of a 4-D `shape`.
TensorDesc tensor_of(const std::vector<int64_t>& shape, int64_t block);

}  // namespace layoutopt::kernels::testing
