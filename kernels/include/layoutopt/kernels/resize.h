#pragma once
// Spatial resize (ONNX Resize, nearest and linear) of an NCHW[x]c tensor into the same
// layout with the new height and width. Which input rows and columns each output pixel reads,
// and with which weights, follows from the shapes and attributes alone, so the taps are
// computed when the kernel is built (reference::resize_taps, shared with the reference) and
// baked in as constant tables: an output pixel is one x-wide vector load (nearest) or four
// blended ones (linear).

#include <cstdint>
#include <string>

#include "layoutopt/graph/ops.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"

namespace layoutopt::kernels {

struct ResizeDesc {
  TensorDesc input;     ///< NCHW[x]c
  graph::Resize attrs;  ///< output size, mode, coordinate transformation, nearest rounding

  /// The output tensor: the input's batch, channels and block at attrs.size.
  [[nodiscard]] TensorDesc output() const;
  /// Throws KernelError for an invalid input or a non-positive output size.
  void validate() const;
  /// Stable text naming every attribute, e.g. "resize_linear_half_pixel_h224_w224_n1_c21_h28_w28_x16".
  [[nodiscard]] std::string str() const;
  bool operator==(const ResizeDesc&) const = default;
};

/// KernelArgs: input, output (separate buffers). Work items: (n, channel block, output row).
[[nodiscard]] Kernel compile_resize(const ResizeDesc& desc);

}  // namespace layoutopt::kernels
