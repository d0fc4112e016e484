#include "layoutopt/graph/weight_init.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace layoutopt::graph {

namespace {

RandomInit init_for(ParameterRole role, const Shape& shape, uint64_t seed) {
  switch (role) {
    case ParameterRole::conv_weight:
    case ParameterRole::dense_weight: {
      int64_t fan_in = 1;
      for (size_t i = 1; i < shape.size(); ++i) fan_in *= shape[i];
      // Uniform(-a, a) has variance a^2/3; a = sqrt(6/fan_in) gives 2/fan_in (Kaiming, for relu).
      return {seed, 0.0f, static_cast<float>(std::sqrt(6.0 / static_cast<double>(std::max<int64_t>(fan_in, 1))))};
    }
    case ParameterRole::bias: return {seed, 0.0f, 0.05f};
    case ParameterRole::bn_scale: return {seed, 1.0f, 0.2f};
    case ParameterRole::bn_shift: return {seed, 0.0f, 0.1f};
    case ParameterRole::bn_mean: return {seed, 0.0f, 0.1f};
    case ParameterRole::bn_variance: return {seed, 1.0f, 0.5f};
  }
  return {seed, 0.0f, 1.0f};
}

}  // namespace

WeightData seeded_weights(ParameterRole role, const Shape& shape, uint64_t seed) {
  return WeightData::seeded(init_for(role, shape, seed), element_count(shape));
}

uint64_t parameter_seed(uint64_t model_seed, const std::string& parameter_name) {
  // FNV-1a over the name, mixed with the model seed.
  uint64_t hash = 1469598103934665603ull ^ (model_seed * 0x9E3779B97F4A7C15ull);
  for (char ch : parameter_name) {
    hash ^= static_cast<unsigned char>(ch);
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace layoutopt::graph
