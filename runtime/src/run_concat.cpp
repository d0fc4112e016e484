#include "layoutopt/runtime/run_concat.h"

#include <string>

#include "layoutopt/runtime/error.h"

namespace layoutopt::runtime {

void run_concat(const std::vector<Kernel>& kernels, std::span<const float* const> inputs, float* output,
                std::span<const int64_t> slice_offsets, Team team) {
  if (inputs.size() != kernels.size() || (!slice_offsets.empty() && slice_offsets.size() != kernels.size()))
    throw KernelError("run_concat: " + std::to_string(inputs.size()) + " inputs and " +
                      std::to_string(slice_offsets.size()) + " slice offsets for " + std::to_string(kernels.size()) +
                      " copy kernels");
  for (size_t i = 0; i < kernels.size(); ++i) {
    const bool in_place = !slice_offsets.empty() && slice_offsets[i] >= 0 && inputs[i] == output + slice_offsets[i];
    if (!in_place) kernels[i]({.input = inputs[i], .output = output}, team);
  }
}

}  // namespace layoutopt::runtime
