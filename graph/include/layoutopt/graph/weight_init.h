#pragma once
// Seeded random weights that keep activations well scaled through deep networks, shared
// by the model zoo and by the ONNX importer (for files exported without weights), so
// outputs stay finite and comparable between executors.

#include <cstdint>

#include <string>

#include "layoutopt/graph/tensor_type.h"
#include "layoutopt/graph/weights.h"

namespace layoutopt::graph {

enum class ParameterRole {
  conv_weight,   ///< [O, I/groups, KH, KW]: uniform with Kaiming scale sqrt(6 / fan_in)
  dense_weight,  ///< [O, I]: the same rule
  bias,          ///< small values around 0
  bn_scale,      ///< around 1
  bn_shift,      ///< around 0
  bn_mean,       ///< around 0
  bn_variance,   ///< strictly positive, around 1
};

/// Weights of the given role and shape drawn from `seed`.
[[nodiscard]] WeightData seeded_weights(ParameterRole role, const Shape& shape, uint64_t seed);

/// A seed for a parameter derived from a model-wide seed and the parameter's name, so the
/// same parameter gets the same values however the graph was built.
[[nodiscard]] uint64_t parameter_seed(uint64_t model_seed, const std::string& parameter_name);

}  // namespace layoutopt::graph
