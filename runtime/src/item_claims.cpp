#include "layoutopt/runtime/item_claims.h"

#include <cassert>

namespace layoutopt::runtime {

ItemClaims::ItemClaims(int max_threads) : ranges_(static_cast<size_t>(std::max(max_threads, 1))) {}

bool ItemClaims::claims(int threads, int64_t items) const {
  return threads > 1 && threads <= static_cast<int>(ranges_.size()) && items <= kMaxItems;
}

ItemClaims::Range ItemClaims::claim(int owner, int threads, int64_t items, bool from_front, int64_t grain) {
  assert(owner >= 0 && owner < threads && threads <= static_cast<int>(ranges_.size()));
  std::atomic<uint64_t>& word = ranges_[static_cast<size_t>(owner)].word;
  uint64_t seen = word.load(std::memory_order_acquire);
  for (;;) {
    if (seen == kUnopened) {
      // Opened by whichever comes first: its owner, or a thief before a late owner.
      const Range start = static_range(owner, threads, items);
      const uint64_t opened = (static_cast<uint64_t>(start.begin) << 32) | static_cast<uint64_t>(start.end);
      if (word.compare_exchange_weak(seen, opened, std::memory_order_acq_rel, std::memory_order_acquire))
        seen = opened;
      continue;
    }
    const auto front = static_cast<int64_t>(seen >> 32);
    const auto back = static_cast<int64_t>(seen & 0xffffffffU);
    if (front >= back) return {0, 0};
    const int64_t left = back - front;
    const Range taken = from_front ? Range{front, front + std::min(grain, left)} : Range{back - (left + 1) / 2, back};
    const int64_t next_front = from_front ? taken.end : front;
    const int64_t next_back = from_front ? back : taken.begin;
    const uint64_t next = (static_cast<uint64_t>(next_front) << 32) | static_cast<uint64_t>(next_back);
    if (word.compare_exchange_weak(seen, next, std::memory_order_acq_rel, std::memory_order_acquire)) return taken;
  }
}

void ItemClaims::leave(int threads) {
  // Every thread has found every range empty once the count reaches the team's size, so no
  // claim is in flight; the others wait at the call's barrier until the next call.
  if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 != threads) return;
  for (int t = 0; t < threads; ++t) ranges_[static_cast<size_t>(t)].word.store(kUnopened, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_release);
}

}  // namespace layoutopt::runtime
