#include "layoutopt/graph/weights.h"

#include <algorithm>

namespace layoutopt::graph {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

float uniform_at(uint64_t seed, uint64_t index, float center, float spread) {
  const uint64_t bits = splitmix64(splitmix64(seed) ^ index);
  // 24 random mantissa bits give a uniform float in [0, 1) exactly representable.
  const float unit = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
  return center + spread * (2.0f * unit - 1.0f);
}

WeightData WeightData::from_values(std::vector<float> values) {
  WeightData data;
  data.count_ = static_cast<int64_t>(values.size());
  data.storage_ = std::make_shared<Storage>();
  data.storage_->values = std::move(values);
  std::call_once(data.storage_->generated, [] {});
  return data;
}

WeightData WeightData::seeded(RandomInit init, int64_t count) {
  WeightData data;
  data.count_ = count;
  data.seeded_ = true;
  data.init_ = init;
  data.storage_ = std::make_shared<Storage>();
  return data;
}

std::span<const float> WeightData::values() const {
  if (!storage_) return {};
  std::call_once(storage_->generated, [this] {
    storage_->values.resize(static_cast<size_t>(count_));
    for (size_t i = 0; i < storage_->values.size(); ++i)
      storage_->values[i] = uniform_at(init_.seed, i, init_.center, init_.spread);
  });
  return storage_->values;
}

bool WeightData::operator==(const WeightData& other) const {
  if (count_ != other.count_ || seeded_ != other.seeded_) return false;
  if (seeded_) return init_ == other.init_;
  const auto a = values();
  const auto b = other.values();
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace layoutopt::graph
