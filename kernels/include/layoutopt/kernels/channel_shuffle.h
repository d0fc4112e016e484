#pragma once
// ShuffleNet's channel shuffle on an NCHW[x]c tensor: output channel i * groups + j is input
// channel j * (C / groups) + i. A permutation of channels, so input and output share shape
// and layout; each output pixel's block of x channels is one gather from wherever those
// channels sit in the input (per-lane offsets computed once per row).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"

namespace layoutopt::kernels {

struct ChannelShuffleDesc {
  TensorDesc tensor;  ///< input and output
  int64_t groups = 2;

  /// Throws KernelError for an invalid tensor or groups that do not divide the channels.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ChannelShuffleDesc&) const = default;
};

/// KernelArgs: input, output (separate buffers). Work items: (n, output channel block, row).
[[nodiscard]] Kernel compile_channel_shuffle(const ChannelShuffleDesc& desc);

}  // namespace layoutopt::kernels
