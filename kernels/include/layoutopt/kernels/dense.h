#pragma once
// dense (fully connected): out[n][o] = sum_i in[n][i] * w[o][i], with the conv2d epilogues.
// The input may be channel-blocked (NC[in_bn]c, what a preceding NCHW[x]c pooling produces);
// it runs on the conv2d microkernel as a 1x1 convolution over a 1x1 image.

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

  [[nodiscard]] std::string str() const;
  bool operator==(const DenseSchedule&) const = default;
};

struct DenseLayouts {
  layout::Layout input;   ///< NC[in_bn]c
  layout::Layout weight;  ///< OI[in_bn]i[out_bn]o
  layout::Layout output;  ///< NC[out_bn]c
};

/// Knobs tile_in, tile_out, prefetch_weights (0/1).
[[nodiscard]] ConfigSpace dense_space(const DenseDesc& desc);
[[nodiscard]] DenseSchedule dense_schedule_at(const ConfigSpace& space, int64_t index);
void validate_dense(const DenseDesc& desc, const DenseSchedule& schedule);
[[nodiscard]] DenseLayouts dense_layouts(const DenseDesc& desc, const DenseSchedule& schedule);
[[nodiscard]] Kernel compile_dense(const DenseDesc& desc, const DenseSchedule& schedule);

}  // namespace layoutopt::kernels
