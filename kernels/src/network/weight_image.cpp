#include "network/weight_image.h"

namespace layoutopt::kernels::network {

namespace {

constexpr size_t kAlignFloats = 16;  // 64 bytes, from the image's 2 MiB-aligned start

size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

runtime::ConstantId WeightImage::add(std::span<const float> values) {
  const size_t offset = floats_.size();
  floats_.insert(floats_.end(), values.begin(), values.end());
  floats_.resize(round_up(floats_.size(), kAlignFloats), 0.0F);
  ranges_.push_back({static_cast<int64_t>(offset), static_cast<int64_t>(values.size())});
  bytes_ += static_cast<int64_t>(values.size() * sizeof(float));
  return static_cast<runtime::ConstantId>(ranges_.size() - 1);
}

}  // namespace layoutopt::kernels::network
