#pragma once
// dense (fully connected): out[n][o] = sum_i in[n][i] * w[o][i], with the conv2d epilogues.
// The input may be channel-blocked (NC[in_bn]c, what a preceding NCHW[x]c pooling produces).
// It runs on the conv2d microkernel as a GEMM: the rows are the output pixels of a 1x1
// convolution over a 1 x rows image, so a register tile of rows_bn rows reuses each weight
// vector it loads rows_bn times (NC[x]c with N outermost is row-major [rows][features]).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/epilogue.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct DenseDesc {
  int64_t batch = 1;
  int64_t in_features = 0;
  int64_t out_features = 0;
  Epilogue epilogue;

  /// Throws KernelError for non-positive sizes.
  void validate() const;
  [[nodiscard]] double flops() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const DenseDesc&) const = default;
};

struct DenseSchedule {
  int64_t in_bn = 1;   ///< input blocking: NC[in_bn]c
  int64_t out_bn = 1;  ///< output blocking: NC[out_bn]c
  bool prefetch_weights = false;  ///< stream the next output block's weights (see Conv2dSchedule)
  int64_t rows_bn = 1;  ///< register tile along the rows (the conv's ow_bn)

  [[nodiscard]] std::string str() const;
  bool operator==(const DenseSchedule&) const = default;
};

struct DenseLayouts {
  layout::Layout input;   ///< NC[in_bn]c
  layout::Layout weight;  ///< OI[in_bn]i[out_bn]o
  layout::Layout output;  ///< NC[out_bn]c
};

/// Knobs tile_in, tile_out, prefetch_weights (0/1), and with several rows tile_rows
/// (1 .. min(rows, 32)).
[[nodiscard]] ConfigSpace dense_space(const DenseDesc& desc);
[[nodiscard]] DenseSchedule dense_schedule_at(const ConfigSpace& space, int64_t index);
/// A reasonable schedule without search: channel blocks of 16, and with several rows a
/// register tile of two output vectors by as many rows as the accumulators allow.
[[nodiscard]] DenseSchedule dense_default_schedule(const DenseDesc& desc);
void validate_dense(const DenseDesc& desc, const DenseSchedule& schedule);
[[nodiscard]] DenseLayouts dense_layouts(const DenseDesc& desc, const DenseSchedule& schedule);
[[nodiscard]] Kernel compile_dense(const DenseDesc& desc, const DenseSchedule& schedule);

}  // namespace layoutopt::kernels
