#pragma once
// Constant tensor contents. Weights are either explicit values (read from an ONNX file or
// computed by a pass) or deterministic seeded random values: zoo networks and ONNX files
// exported without weights use the latter, which are materialized only when first read,
// so `layoutopt info resnet-152` never touches 240 MB of weights.

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace layoutopt::graph {

/// How seeded random weights are drawn: uniform in [center - spread, center + spread].
struct RandomInit {
  uint64_t seed = 0;
  float center = 0.0f;
  float spread = 1.0f;
  bool operator==(const RandomInit&) const = default;
};

class WeightData {
 public:
  static WeightData from_values(std::vector<float> values);
  static WeightData seeded(RandomInit init, int64_t count);

  [[nodiscard]] int64_t size() const { return count_; }
  [[nodiscard]] bool is_seeded() const { return seeded_; }
  [[nodiscard]] const RandomInit& random_init() const { return init_; }
  /// The values; seeded data is generated on first access (thread-safe) and cached.
  [[nodiscard]] std::span<const float> values() const;

  /// Equal when both hold the same numbers (seeded data compares by its recipe).
  bool operator==(const WeightData& other) const;

 private:
  struct Storage {
    std::once_flag generated;
    std::vector<float> values;
  };
  int64_t count_ = 0;
  bool seeded_ = false;
  RandomInit init_;
  std::shared_ptr<Storage> storage_;
};

/// Counter-based random numbers: value i of a seed is the same on every platform and
/// can be computed independently of all others (splitmix64 of seed and index).
[[nodiscard]] float uniform_at(uint64_t seed, uint64_t index, float center, float spread);

}  // namespace layoutopt::graph
