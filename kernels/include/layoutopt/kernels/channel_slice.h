#pragma once
// A channel slice of an NCHW[x]c tensor (ShuffleNet's and CSP networks' channel splits):
// output channel c is input channel start + c, for c in [0, end - start). Input and output
// share the block x, which must divide start and the slice's length, so every output
// channel block is one whole input channel block and a pixel's block is one vector copy.
// The kernel is concat's channel copy reading a range of the input instead of writing a
// range of the output.

#include <cstdint>
#include <optional>
#include <string>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct ChannelSliceDesc {
  TensorDesc input;  ///< the whole tensor sliced, in NCHW[block]c
  int64_t start = 0;  ///< first channel kept
  int64_t end = 0;    ///< one past the last channel kept

  /// Channels [start, end) of the input, in the input's block.
  [[nodiscard]] TensorDesc output() const;
  /// Throws KernelError for an invalid input, a range outside its channels, or a block that
  /// does not divide start and end - start.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ChannelSliceDesc&) const = default;
};

struct ChannelSliceLayouts {
  layout::Layout input;   ///< NCHW[block]c
  layout::Layout output;  ///< NCHW[block]c
};

[[nodiscard]] ChannelSliceLayouts channel_slice_layouts(const ChannelSliceDesc& desc);
/// Where the slice is one contiguous run of its input, how many floats into the input it
/// starts: at batch 1, channels [start, end) of NCHW[x]c (x dividing start) are floats
/// [start * H * W, end * H * W). A compiled network then reads the slice in place, a view
/// that copies nothing (the mirror of concat_slice_offsets). nullopt at other batches.
[[nodiscard]] std::optional<int64_t> channel_slice_view_offset(const ChannelSliceDesc& desc);
/// KernelArgs: input, output (separate buffers). Work items: (n, output channel block, row).
[[nodiscard]] Kernel compile_channel_slice(const ChannelSliceDesc& desc);

}  // namespace layoutopt::kernels
