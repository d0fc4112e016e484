#include "layoutopt/runtime/item_claims.h"

#include <algorithm>
#include <cassert>

namespace layoutopt::runtime {

ItemClaims::ItemClaims(int max_threads) : ranges_(static_cast<size_t>(std::max(max_threads, 1))) {}

bool ItemClaims::claims(int threads, int64_t items) const {
  return threads > 1 && threads <= static_cast<int>(ranges_.size()) && items <= static_cast<int64_t>(kItemMask);
}

ItemClaims::Range ItemClaims::claim(int owner, int threads, int64_t items, uint64_t call, bool from_front,
                                    int64_t grain) {
  assert(owner >= 0 && owner < threads && threads <= static_cast<int>(ranges_.size()));
  std::atomic<uint64_t>& word = ranges_[static_cast<size_t>(owner)].word;
  uint64_t seen = word.load(std::memory_order_acquire);
  for (;;) {
    if ((seen >> (2 * kItemBits)) != (call & kCallMask)) {
      // The range still holds the previous call's state: open it for this call (its owner,
      // or a thief arriving before a late owner; whichever comes first).
      const Range start = static_range(owner, threads, items);
      word.compare_exchange_weak(seen, pack(call, start.begin, start.end), std::memory_order_acq_rel,
                                 std::memory_order_acquire);
      seen = word.load(std::memory_order_acquire);
      continue;
    }
    const auto front = static_cast<int64_t>((seen >> kItemBits) & kItemMask);
    const auto back = static_cast<int64_t>(seen & kItemMask);
    if (front >= back) return {0, 0};
    const int64_t left = back - front;
    const Range taken = from_front ? Range{front, front + std::min(grain, left)} : Range{back - (left + 1) / 2, back};
    const uint64_t next = from_front ? pack(call, taken.end, back) : pack(call, front, taken.begin);
    if (word.compare_exchange_weak(seen, next, std::memory_order_acq_rel, std::memory_order_acquire)) return taken;
  }
}

}  // namespace layoutopt::runtime
