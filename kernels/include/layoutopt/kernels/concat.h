#pragma once
// Concatenation of NCHW[x]c tensors along channels. Inputs may use different blocks than
// the output: each input's channel count must be a multiple of the output block, so every
// output channel block comes from exactly one input (the same rule as TVM / oneDNN blocked
// concat). Each input's own block must divide its channels.
//
// A concat with N inputs does not fit the one-input KernelArgs ABI, so it is N copy kernels:
// kernel i reads input i (KernelArgs::input) and writes its channel slice of the whole output
// (KernelArgs::output). Work items of each are (n, output channel block, row).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/runtime/run_concat.h"

namespace layoutopt::kernels {

struct ConcatDesc {
  std::vector<TensorDesc> inputs;  ///< same batch, height and width; each with its own block
  int64_t out_block = 1;

  /// The concatenated tensor in NCHW[out_block]c.
  [[nodiscard]] TensorDesc output() const;
  /// Throws KernelError naming the first offending input.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ConcatDesc&) const = default;
};

struct ConcatLayouts {
  std::vector<layout::Layout> inputs;  ///< NCHW[x_i]c per input
  layout::Layout output;               ///< NCHW[out_block]c
};

[[nodiscard]] ConcatLayouts concat_layouts(const ConcatDesc& desc);
/// One copy kernel per input, in input order (KernelArgs: input, output).
[[nodiscard]] std::vector<Kernel> compile_concat(const ConcatDesc& desc);

/// Where each input's channels sit in the output as one contiguous run of floats, from the
/// output's start, or -1 where they do not: with batch 1 and the output's block, input i is
/// output channel blocks [c_i / block, (c_i + channels_i) / block), i.e. c_i * height * width
/// floats in. An input already living there (its producer wrote it into the output) needs
/// no copy: a network can lay whole concats out that way, and the copies vanish.
[[nodiscard]] std::vector<int64_t> concat_slice_offsets(const ConcatDesc& desc);

/// Runs the copy kernels: see layoutopt/runtime/run_concat.h.
using runtime::run_concat;

}  // namespace layoutopt::kernels
