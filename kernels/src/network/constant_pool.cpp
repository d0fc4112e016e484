#include "network/constant_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace layoutopt::kernels::network {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kBlockBytes = size_t{8} << 20;  // a few blocks hold a whole CNN's weights
constexpr size_t kAlignFloats = 16;               // 64 bytes

size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

void PageBlock::Free::operator()(float* p) const { std::free(p); }

PageBlock::PageBlock(size_t floats) : floats_(floats) {
  const size_t bytes = round_up(std::max<size_t>(floats, 1) * sizeof(float), kHugePage);
  auto* memory = static_cast<float*>(std::aligned_alloc(kHugePage, bytes));
  if (memory == nullptr) throw std::bad_alloc();
  memory_.reset(memory);
  (void)madvise(memory, bytes, MADV_HUGEPAGE);  // advice only: regular pages still work
  std::memset(memory, 0, bytes);                 // fault the pages in now, not in the first run
}

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
