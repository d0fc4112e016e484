#pragma once
// The time a thread spends inside kernel bodies, for profiled runs. The rest of a step's time
// on that thread is waiting: for the team at the step's barrier, for items to claim, in the
// runtime between steps. Only a thread with a sink records (BusyTimeSink), so an untimed run
// pays one thread-local read per kernel call.

#include <chrono>

namespace layoutopt::runtime {

/// While alive, the calling thread adds the milliseconds it spends inside kernel bodies
/// (BusyTimer) to `*ms`; a null `ms` records nothing. Restores the previous sink on exit.
class BusyTimeSink {
 public:
  explicit BusyTimeSink(double* ms);
  ~BusyTimeSink();
  BusyTimeSink(const BusyTimeSink&) = delete;
  BusyTimeSink& operator=(const BusyTimeSink&) = delete;

 private:
  double* previous_;
};

/// Times one call of a kernel body, from construction to destruction, into the calling
/// thread's sink if it has one.
class BusyTimer {
 public:
  BusyTimer();
  ~BusyTimer();
  BusyTimer(const BusyTimer&) = delete;
  BusyTimer& operator=(const BusyTimer&) = delete;

 private:
  double* sink_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace layoutopt::runtime
