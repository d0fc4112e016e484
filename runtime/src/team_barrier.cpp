#include "layoutopt/runtime/team_barrier.h"

#include <immintrin.h>

namespace layoutopt::runtime {

void TeamBarrier::arrive_and_wait(int threads) {
  if (threads <= 1) return;
  // Read before arriving: the generation cannot advance until this thread has arrived.
  const uint32_t generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) {
    // No one arrives again before the generation advances, so the count can be reset first.
    arrived_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    // A sleeper announced itself before checking the generation (seq_cst on both sides): it
    // either sees the new generation and does not sleep, or is counted here and woken.
    if (sleepers_.load(std::memory_order_seq_cst) > 0) generation_.notify_all();
    return;
  }
  for (int64_t spin = 0; spin < kSpinsBeforeSleep; ++spin) {
    if (generation_.load(std::memory_order_acquire) != generation) return;
    _mm_pause();
  }
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  while (generation_.load(std::memory_order_seq_cst) == generation) generation_.wait(generation, std::memory_order_seq_cst);
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace layoutopt::runtime
