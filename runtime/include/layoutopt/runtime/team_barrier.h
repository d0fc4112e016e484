#pragma once
// TeamBarrier: where the threads of a team wait for each other between a network's steps.
// The last thread to arrive releases the others by advancing a generation word they spin
// on; a thread that has spun for long (the host took its core, or the step was long) sleeps
// on the word instead, and only then does the releasing thread make a system call to wake it.
//
// Why not `#pragma omp barrier`: libgomp's last arriver makes a futex system call at every
// barrier whether anyone sleeps or not, and a network waits at one or more per step
// (docs/design/thread-waiting.md).

#include <atomic>
#include <cstdint>

namespace layoutopt::runtime {

class TeamBarrier {
 public:
  TeamBarrier() = default;
  // A copy is a barrier of its own (its state belongs to a call in flight, not to a value).
  TeamBarrier(const TeamBarrier& /*other*/) {}
  TeamBarrier& operator=(const TeamBarrier& /*other*/) { return *this; }

  /// Returns once `threads` threads have called it; every thread of the team must, with
  /// the same count. What each wrote before the call is visible to all after it.
  void arrive_and_wait(int threads);

  /// Pause instructions a waiting thread spins before it sleeps: 1.25 ms on Zen 5 (a pause
  /// takes tens of cycles there, up to 140 on some Intel cores), far beyond a step's usual
  /// wait of a few microseconds, below libgomp's default of 300,000 spins.
  static constexpr int64_t kSpinsBeforeSleep = 1 << 16;

 private:
  alignas(64) std::atomic<int32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> generation_{0};
  std::atomic<int32_t> sleepers_{0};
};

}  // namespace layoutopt::runtime
