#pragma once
// The tensors a caller hands to a run and the ones it fills, and the one check of them that
// every session (the artifact's, the JIT's) makes before it runs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::runtime {

/// A tensor handed to or filled by a run: canonical layout (NCHW, NC), dense.
struct TensorView {
  const float* data = nullptr;
  std::span<const int64_t> shape;
};
struct MutableTensorView {
  float* data = nullptr;
  std::span<const int64_t> shape;
};

/// What is wrong with `inputs` and `outputs` as a run of `network` with these tensors (the
/// counts, a missing buffer, a shape other than the tensor's), naming it; none when nothing
/// is. Sessions throw it as their own error.
[[nodiscard]] std::optional<std::string> views_mismatch(std::string_view network,
                                                        std::span<const TensorSpec> expected_inputs,
                                                        std::span<const TensorSpec> expected_outputs,
                                                        std::span<const TensorView> inputs,
                                                        std::span<const MutableTensorView> outputs);

}  // namespace layoutopt::runtime
