#include "layoutopt/runtime/team_barrier.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace layoutopt::runtime;

namespace {

// `rounds` barriers by a team of `threads`; thread `late` sleeps `delay` before each arrival.
// Returns how many times a thread saw, right after a barrier, fewer arrivals than the round
// it passed (each thread counts itself into `arrivals` before arriving).
int early_passes(TeamBarrier& barrier, int threads, int rounds, int late = -1,
                 std::chrono::microseconds delay = std::chrono::microseconds(0)) {
  std::atomic<int> arrivals{0};
  std::atomic<int> early{0};
#pragma omp parallel num_threads(threads)
  {
    const int thread = omp_get_thread_num();
    for (int round = 1; round <= rounds; ++round) {
      if (thread == late) std::this_thread::sleep_for(delay);
      arrivals.fetch_add(1, std::memory_order_relaxed);
      barrier.arrive_and_wait(omp_get_num_threads());
      if (arrivals.load(std::memory_order_relaxed) < round * omp_get_num_threads()) early.fetch_add(1);
      // The next round's arrivals must not be counted before every thread has checked this
      // one's: a second barrier separates them.
      barrier.arrive_and_wait(omp_get_num_threads());
    }
  }
  return early.load();
}

}  // namespace

TEST_CASE("no thread passes a team barrier before the whole team has arrived") {
  TeamBarrier barrier;
  CHECK(early_passes(barrier, 2, 2000) == 0);
  CHECK(early_passes(barrier, 4, 500) == 0);  // on a 2-core host more threads than cores: spins give way
}

TEST_CASE("a thread that waits long sleeps and is woken by the last arrival") {
  // 2 ms per round is far beyond kSpinsBeforeSleep pauses, so the waiting thread sleeps.
  TeamBarrier barrier;
  CHECK(early_passes(barrier, 2, 20, 1, std::chrono::microseconds(2000)) == 0);
  CHECK(early_passes(barrier, 3, 20, 0, std::chrono::microseconds(2000)) == 0);
}

TEST_CASE("what a thread writes before the barrier, every thread reads after it") {
  TeamBarrier barrier;
  constexpr int kThreads = 2, kRounds = 1000;
  std::vector<int> slots(kThreads, 0);
  int mismatches = 0;
#pragma omp parallel num_threads(kThreads) reduction(+ : mismatches)
  {
    const int thread = omp_get_thread_num();
    for (int round = 1; round <= kRounds; ++round) {
      slots[static_cast<size_t>(thread)] = round;  // plain writes: the barrier orders them
      barrier.arrive_and_wait(kThreads);
      for (int other = 0; other < kThreads; ++other) mismatches += slots[static_cast<size_t>(other)] != round;
      barrier.arrive_and_wait(kThreads);
    }
  }
  CHECK(mismatches == 0);
}
