#pragma once
// ItemClaims: how a team of threads shares out one call's work items. Each thread owns the
// contiguous range a static split would give it and claims grains from its front; a thread
// whose range is empty takes the back half of what another has left. On a quiet machine
// every thread finishes its own range at about the same time, so the split stays the static
// one (a thread reads the weights or rows it read or wrote in the step before); when a core
// is slowed (a border tile costs more, the host takes a core away for a while), the others
// finish its range instead of waiting for it at the step's barrier.
//
// Lock-free: one 64-bit word per thread packs its range's front and back, or marks it not yet
// opened for this call, so that a thief can open the range of a late owner. The last thread
// to run out marks every range unopened again for the next call.

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
    if (this != &other) *this = ItemClaims(static_cast<int>(other.ranges_.size()));
    return *this;
  }
  ItemClaims(ItemClaims&& other) noexcept : ranges_(std::move(other.ranges_)) {}
  ItemClaims& operator=(ItemClaims&& other) noexcept {
    ranges_ = std::move(other.ranges_);
    return *this;
  }

  /// Calls body(begin, end) on disjoint ranges covering [0, items) between them, as thread
  /// `thread` of a team of `threads`. Every thread of the team must make the call, with the
  /// same `items`; a call returns when nothing is left to claim (other threads may still run
  /// theirs). Consecutive calls on one ItemClaims must be separated by a barrier of the
  /// whole team (a step's own).
  template <class Body>
  void run(int thread, int threads, int64_t items, const Body& body);

  /// Whether run() shares out `items` over `threads` by claims (else it splits statically).
  [[nodiscard]] bool claims(int threads, int64_t items) const;

 private:
  struct Range {
    int64_t begin;
    int64_t end;
  };
  // A thread's range word: (front << 32) | back, or kUnopened.
  struct alignas(64) Slot {
    std::atomic<uint64_t> word{kUnopened};
  };
  static constexpr uint64_t kUnopened = ~uint64_t{0};
  static constexpr int64_t kMaxItems = (int64_t{1} << 31) - 1;

  static Range static_range(int thread, int threads, int64_t items) {
    return {items * thread / threads, items * (thread + 1) / threads};
  }
  // Takes up to `grain` items from the front of `owner`'s range (its own thread) or the back
  // half of it (a thief); empty when nothing is left.
  Range claim(int owner, int threads, int64_t items, bool from_front, int64_t grain);
  // Called by each thread once it has found nothing left: the last of the team reopens.
  void leave(int threads);

  std::vector<Slot> ranges_;
  std::atomic<int> finished_{0};  // threads of the current call that found nothing left
};

template <class Body>
void ItemClaims::run(int thread, int threads, int64_t items, const Body& body) {
  if (!claims(threads, items)) {
    const Range mine = static_range(thread, threads, items);
    if (mine.begin < mine.end) body(mine.begin, mine.end);
    return;
  }
  const Range mine = static_range(thread, threads, items);
  // Sixteen grains per range: fine enough that a thread a few grains late leaves some to
  // take, coarse enough that a claim costs nothing beside its grain and a grain's items stay
  // consecutive (a kernel's passes and prefetches work along them).
  constexpr int64_t kGrainsPerRange = 16;
  const int64_t grain = std::max<int64_t>(1, (mine.end - mine.begin + kGrainsPerRange - 1) / kGrainsPerRange);
  for (Range r = claim(thread, threads, items, true, grain); r.begin < r.end;
       r = claim(thread, threads, items, true, grain))
    body(r.begin, r.end);
  for (int step = 1; step < threads; ++step) {
    const int victim = (thread + step) % threads;
    for (Range r = claim(victim, threads, items, false, 0); r.begin < r.end;
         r = claim(victim, threads, items, false, 0))
      body(r.begin, r.end);
  }
  leave(threads);
}

}  // namespace layoutopt::runtime
