#include "op_check.h"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "layoutopt/layout/transform.h"

namespace layoutopt::kernels::testing {

namespace {

layout::Layout canonical(size_t rank) { return layout::canonical_data_layout(rank); }

}  // namespace

HostTensor random_tensor(std::vector<int64_t> shape, unsigned seed, float low, float high) {
  HostTensor tensor(std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  for (float& value : tensor.data) value = uniform(rng);
  return tensor;
}

std::vector<float> to_layout(const HostTensor& tensor, const layout::Layout& layout) {
  return layout::LayoutTransform::for_activation(tensor.shape, canonical(tensor.shape.size()), layout)
      .apply(tensor.data);
}

HostTensor from_layout(const std::vector<float>& data, std::vector<int64_t> shape, const layout::Layout& layout) {
  HostTensor tensor;
  tensor.data = layout::LayoutTransform::for_activation(shape, layout, canonical(shape.size())).apply(data);
  tensor.shape = std::move(shape);
  return tensor;
}

std::vector<float> nan_buffer(int64_t elements) {
  return std::vector<float>(static_cast<size_t>(elements), std::nanf(""));
}

void run_kernel(const Kernel& kernel, const KernelArgs& args, int ranges) {
  if (ranges <= 1) {
    kernel(args);
    return;
  }
  const int64_t items = kernel.work_items();
  for (int64_t r = 0; r < ranges; ++r) kernel.run_range(args, items * r / ranges, items * (r + 1) / ranges);
}

void check_exact(const HostTensor& expected, const HostTensor& actual, const std::string& what) {
  check_close(expected, actual, 0.0, 0.0, what);
}

void check_close(const HostTensor& expected, const HostTensor& actual, double relative, double absolute,
                 const std::string& what) {
  REQUIRE(expected.shape == actual.shape);
  for (size_t i = 0; i < expected.data.size(); ++i) {
    const double e = expected.data[i], a = actual.data[i];
    if (!(std::fabs(a - e) <= relative * std::fabs(e) + absolute)) {  // negated: NaN fails
      FAIL_CHECK(what << ": element " << i << " is " << a << ", expected " << e);
      return;
    }
  }
}

std::vector<int64_t> blocks_dividing(int64_t channels) {
  std::vector<int64_t> blocks;
  for (int64_t block : {1, 4, 8, 16, 32})
    if (channels % block == 0) blocks.push_back(block);
  return blocks;
}

TensorDesc tensor_of(const std::vector<int64_t>& shape, int64_t block) {
  return {shape[0], shape[1], shape[2], shape[3], block};
}

}  // namespace layoutopt::kernels::testing
