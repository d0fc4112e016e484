#pragma once
// ItemClaims: how a team of threads shares out one call's work items. Each thread owns the
// contiguous range a static split would give it and claims grains from its front; a thread
// whose range is empty takes the back half of what another has left. On a quiet machine
// every thread finishes its own range at about the same time, so the split stays the static
// one (a thread reads the weights or rows it read or wrote in the step before); when a core
// is slowed (a border tile costs more, the host takes a core away for a while), the others
// finish its range instead of waiting for it at the step's barrier.
//
// Lock-free: one 64-bit word per thread packs its range's front, back and the call it belongs
// to, so a range left from the previous call is told apart from this call's and a thief can
// open a range its late owner has not yet started.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace layoutopt::runtime {

class ItemClaims {
 public:
  /// Claims for teams of up to `max_threads` threads; larger teams split statically.
  explicit ItemClaims(int max_threads);
  // A copy has claims of its own, for as many threads (claims are state of a call, not a value).
  ItemClaims(const ItemClaims& other) : ItemClaims(static_cast<int>(other.ranges_.size())) {}
  ItemClaims& operator=(const ItemClaims& other) {
    if (this != &other) ranges_ = std::vector<Slot>(other.ranges_.size());
    return *this;
  }

  /// Calls body(begin, end) on disjoint ranges covering [0, items) between them, as thread
  /// `thread` of a team of `threads`. Every thread of the team must make the call, with the
  /// same `items`, and all of a team's calls in the same order; a call returns when nothing
  /// is left to claim (other threads may still run theirs: the caller's barrier waits).
  template <class Body>
  void run(int thread, int threads, int64_t items, const Body& body);

  /// Whether run() shares out `items` over `threads` by claims (else it splits statically).
  [[nodiscard]] bool claims(int threads, int64_t items) const;

 private:
  struct Range {
    int64_t begin;
    int64_t end;
  };
  // A thread's range word: (call << 48) | (front << 24) | back.
  struct alignas(64) Slot {
    std::atomic<uint64_t> word{0};
    uint64_t calls = 0;  // calls this slot's thread has made; read by that thread only
  };
  static constexpr int kItemBits = 24;
  static constexpr uint64_t kItemMask = (uint64_t{1} << kItemBits) - 1;
  static constexpr uint64_t kCallMask = 0xffff;

  static Range static_range(int thread, int threads, int64_t items) {
    return {items * thread / threads, items * (thread + 1) / threads};
  }
  static uint64_t pack(uint64_t call, int64_t front, int64_t back) {
    return ((call & kCallMask) << (2 * kItemBits)) | (static_cast<uint64_t>(front) << kItemBits) |
           static_cast<uint64_t>(back);
  }
  // Takes up to `grain` items from the front of `owner`'s range (its own thread) or the back
  // half of it (a thief); empty when nothing is left.
  Range claim(int owner, int threads, int64_t items, uint64_t call, bool from_front, int64_t grain);

  std::vector<Slot> ranges_;
};

template <class Body>
void ItemClaims::run(int thread, int threads, int64_t items, const Body& body) {
  if (!claims(threads, items)) {
    const Range mine = static_range(thread, threads, items);
    if (mine.begin < mine.end) body(mine.begin, mine.end);
    return;
  }
  const uint64_t call = ++ranges_[static_cast<size_t>(thread)].calls;
  const Range mine = static_range(thread, threads, items);
  // Sixteen grains per range: fine enough that a thread a few grains late leaves some to
  // take, coarse enough that a claim costs nothing beside its grain and a grain's items stay
  // consecutive (a kernel's passes and prefetches work along them).
  constexpr int64_t kGrainsPerRange = 16;
  const int64_t grain = std::max<int64_t>(1, (mine.end - mine.begin + kGrainsPerRange - 1) / kGrainsPerRange);
  for (Range r = claim(thread, threads, items, call, true, grain); r.begin < r.end;
       r = claim(thread, threads, items, call, true, grain))
    body(r.begin, r.end);
  for (int step = 1; step < threads; ++step) {
    const int victim = (thread + step) % threads;
    for (Range r = claim(victim, threads, items, call, false, 0); r.begin < r.end;
         r = claim(victim, threads, items, call, false, 0))
      body(r.begin, r.end);
  }
}

}  // namespace layoutopt::runtime
