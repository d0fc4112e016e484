#include "layoutopt/runtime/page_block.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace layoutopt::runtime {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

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

}  // namespace layoutopt::runtime
