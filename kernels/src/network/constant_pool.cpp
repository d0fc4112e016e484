#include "network/constant_pool.h"

#include <algorithm>

namespace layoutopt::kernels::network {

namespace {

constexpr size_t kBlockBytes = size_t{8} << 20;  // a few blocks hold a whole CNN's weights
constexpr size_t kAlignFloats = 16;               // 64 bytes

size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

const float* ConstantPool::add(std::span<const float> values) {
  const size_t need = round_up(values.size(), kAlignFloats);
  if (blocks_.empty() || used_ + need > blocks_.back().size()) {
    blocks_.emplace_back(std::max(need, kBlockBytes / sizeof(float)));
    used_ = 0;
  }
  float* target = blocks_.back().data() + used_;
  std::copy(values.begin(), values.end(), target);
  used_ += need;
  bytes_ += static_cast<int64_t>(values.size() * sizeof(float));
  return target;
}

}  // namespace layoutopt::kernels::network
