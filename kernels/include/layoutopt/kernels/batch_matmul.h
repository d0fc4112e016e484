#pragma once
// Batched matrix product out[..., M, N] = a[..., M, K] x b[..., K, N] in row-major order, the
// leading axes broadcast numpy style (attention's Q.K^T and P.V). b is an activation, so it is
// read where it lies: each reduction step loads a row of b as vectors along N and multiplies it
// by one broadcast element of a per tile row, a register tile of rows_bn rows by cols_bn
// columns. Work items are (matrix, row tile, column block), column blocks fastest: consecutive
// items reuse the same rows of a and the same matrix of b from cache.

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

struct BatchMatMulDesc {
  std::vector<int64_t> a_shape;  ///< [..., M, K]
  std::vector<int64_t> b_shape;  ///< [..., K, N]

  /// Throws KernelError unless both have rank >= 2, K agrees and the leading axes broadcast.
  void validate() const;
  [[nodiscard]] std::vector<int64_t> out_shape() const;
  [[nodiscard]] int64_t m() const { return a_shape[a_shape.size() - 2]; }
  [[nodiscard]] int64_t k() const { return a_shape.back(); }
  [[nodiscard]] int64_t n() const { return b_shape.back(); }
  /// Output matrices (the product of the broadcast leading axes).
  [[nodiscard]] int64_t matrices() const;
  [[nodiscard]] double flops() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const BatchMatMulDesc&) const = default;
};

struct BatchMatMulSchedule {
  int64_t rows_bn = 1;  ///< register tile rows (rows of a)
  int64_t cols_bn = 1;  ///< register tile columns (floats of a row of b; the last block may be shorter)

  [[nodiscard]] std::string str() const;
  bool operator==(const BatchMatMulSchedule&) const = default;
};

/// Two vectors of columns (one where N is narrower) by as many rows as the accumulators
/// allow: each broadcast element of a then feeds two FMAs.
[[nodiscard]] BatchMatMulSchedule batch_matmul_default_schedule(const BatchMatMulDesc& desc);
void validate_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule);
/// KernelArgs: input = a, weight = b, output; all row-major.
[[nodiscard]] Kernel compile_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule);

}  // namespace layoutopt::kernels
