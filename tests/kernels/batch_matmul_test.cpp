// The batched matrix product kernel against the reference batch_matmul: attention's shapes
// (ViT-B/16, ViT-B/32 at batch 2, Swin's windows), remainder tiles and broadcast leading axes.

#include <doctest/doctest.h>

#include "kernel_check.h"
#include "layoutopt/kernels/batch_matmul.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;

void check_product(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule) {
  const testing::HostTensor a = testing::random_tensor(desc.a_shape, 11);
  const testing::HostTensor b = testing::random_tensor(desc.b_shape, 12);
  const std::vector<int64_t> out_shape = desc.out_shape();
  const testing::HostTensor expected = reference::batch_matmul(a, b, out_shape);
  std::vector<float> output = testing::nan_buffer(static_cast<int64_t>(expected.data.size()));
  KernelArgs args;
  args.input = a.data.data();
  args.weight = b.data.data();
  args.output = output.data();
  testing::run_kernel(compile_batch_matmul(desc, schedule), args, 3);
  testing::check_close(expected.data, output, desc.k(), desc.str() + " " + schedule.str());
}

}  // namespace

TEST_CASE("batch_matmul on attention shapes with the default schedule") {
  const std::vector<BatchMatMulDesc> shapes{
      {{1, 12, 197, 64}, {1, 12, 64, 197}},  // ViT-B/16 Q.K^T
      {{1, 12, 197, 197}, {1, 12, 197, 64}},  // ViT-B/16 P.V
      {{2, 12, 50, 64}, {2, 12, 64, 50}},     // ViT-B/32, batch 2
      {{2, 12, 50, 50}, {2, 12, 50, 64}},
      {{16, 3, 49, 32}, {16, 3, 32, 49}},     // Swin-T stage 1 windows, 3 heads
      {{16, 24, 49, 49}, {16, 24, 49, 32}},   // 24 heads
  };
  for (const BatchMatMulDesc& desc : shapes) check_product(desc, batch_matmul_default_schedule(desc));
}

TEST_CASE("batch_matmul tiles with remainders in rows and columns") {
  const BatchMatMulDesc desc{{2, 3, 23, 19}, {2, 3, 19, 37}};
  for (const int64_t rows : {1, 5, 12, 23})
    for (const int64_t cols : {1, 7, 16, 32, 37}) {
      CAPTURE(rows);
      CAPTURE(cols);
      check_product(desc, {rows, cols});
    }
}

TEST_CASE("batch_matmul broadcasts leading axes like numpy") {
  check_product({{2, 3, 5, 7}, {7, 6}}, {4, 6});            // b shared by every matrix
  check_product({{1, 3, 5, 7}, {2, 1, 7, 6}}, {5, 6});      // both broadcast
  check_product({{5, 7}, {4, 7, 33}}, {3, 32});             // a shared, lower rank
  const BatchMatMulDesc desc{{1, 3, 5, 7}, {2, 1, 7, 6}};
  CHECK(desc.out_shape() == std::vector<int64_t>{2, 3, 5, 6});
  CHECK(desc.matrices() == 6);
}

TEST_CASE("batch_matmul refuses operands that do not multiply or broadcast, and tiles out of range") {
  CHECK_THROWS_AS(BatchMatMulDesc({{2, 5, 7}, {2, 6, 3}}).validate(), KernelError);
  CHECK_THROWS_AS(BatchMatMulDesc({{2, 5, 7}, {3, 7, 3}}).validate(), KernelError);
  CHECK_THROWS_AS(validate_batch_matmul({{2, 5, 7}, {2, 7, 3}}, {6, 3}), KernelError);
  CHECK_THROWS_AS(validate_batch_matmul({{2, 5, 7}, {2, 7, 3}}, {5, 4}), KernelError);
}
