#include "layoutopt/runtime/busy_time.h"

namespace layoutopt::runtime {

namespace {

thread_local double* busy_sink = nullptr;

}  // namespace

BusyTimeSink::BusyTimeSink(double* ms) : previous_(busy_sink) { busy_sink = ms; }

BusyTimeSink::~BusyTimeSink() { busy_sink = previous_; }

BusyTimer::BusyTimer() : sink_(busy_sink) {
  if (sink_ != nullptr) start_ = std::chrono::steady_clock::now();
}

BusyTimer::~BusyTimer() {
  if (sink_ != nullptr)
    *sink_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace layoutopt::runtime
