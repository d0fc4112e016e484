// Busy time: a thread with a sink adds the time it spends inside kernel bodies, one without
// records nothing; a network run with a table of busy times fills in, for every step of its
// shared team whose work is in kernel bodies, each thread's time inside them, and leaves the
// other steps' entries alone.

#include <doctest/doctest.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "layoutopt/runtime/busy_time.h"
#include "layoutopt/runtime/error.h"
#include "layoutopt/runtime/network.h"
#include "one_stage_networks.h"

namespace layoutopt::testing {

namespace {

using namespace layoutopt::runtime;
using Clock = std::chrono::steady_clock;

constexpr int64_t kItems = 8;
constexpr double kItemMs = 0.5;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Copies its items and spins kItemMs on each: a body whose time the test knows.
void spin_copy(const float* in, const float*, const float*, const float*, float* out, const float*, int64_t begin,
               int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const Clock::time_point start = Clock::now();
    while (ms_since(start) < kItemMs) {
    }
    out[i] = in[i];
  }
}

KernelFunction resolve(const std::string& symbol) { return symbol == "spin" ? &spin_copy : nullptr; }

/// x -> spin -> y -> transform NC -> NC8c (the same floats in the same order) -> z.
NetworkSpec spin_then_transform() {
  NetworkSpec n;
  n.name = "spin";
  add_slots_in_own_storage(n, 3, kItems);
  n.steps.push_back({"spin", "spin", KernelStep{one_stage_kernel("spin", kItems), Operand::slot(0), {}, {}, {}, {}, 1}});
  n.steps.push_back({"copy", "copy",
                     TransformStep{{1, kItems}, layout::Layout::nc(), layout::Layout::channel_blocked(2, kItems), 1, 2}});
  n.inputs = {{"x", {1, kItems}, 0}};
  n.outputs = {{"z", {1, kItems}, 2}};
  return n;
}

}  // namespace

TEST_CASE("a thread records its time inside kernel bodies only while it has a sink") {
  double outer = 0, inner = 0;
  { const BusyTimer untimed; }  // no sink: nothing to write to, nothing happens
  {
    const BusyTimeSink sink(&outer);
    {
      const BusyTimer timer;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    {
      const BusyTimeSink nested(&inner);
      const BusyTimer timer;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const BusyTimer back_to_outer;
  }
  { const BusyTimer after; }
  CHECK(outer >= 2.0);
  CHECK(outer < 1000.0);
  CHECK(inner >= 1.0);
  CHECK(inner < outer + 1000.0);
}

TEST_CASE("a profiled network run records each thread's busy time in the steps of its shared team") {
  Network network(spin_then_transform(), nullptr, resolve);
  std::vector<float> x(kItems, 3.0f);
  network.set_input(0, x);
  network.execute();  // the first run at a thread count forks a team per step and records nothing
  const auto threads = static_cast<size_t>(omp_get_max_threads());
  std::vector<double> busy(2 * threads, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> step_ms;
  Clock::time_point start = Clock::now();
  network.execute(
      [&](size_t) {
        step_ms.push_back(ms_since(start));
        start = Clock::now();
      },
      busy);
  REQUIRE(step_ms.size() == 2);
  double spun = 0;
  for (size_t t = 0; t < threads; ++t) {
    CAPTURE(t);
    REQUIRE_FALSE(std::isnan(busy[t]));
    CHECK(busy[t] >= 0.0);
    CHECK(busy[t] <= step_ms[0] + 1e-6);  // inside the step's wall time
    spun += busy[t];
    CHECK(std::isnan(busy[threads + t]));  // a transform's work is not in kernel bodies
  }
  CHECK(spun >= kItems * kItemMs);  // every item's spin, on whichever thread ran it
  CHECK(network.output(0)[0] == 3.0f);

  std::vector<double> wrong_size(threads);
  CHECK_THROWS_WITH_AS(network.execute({}, wrong_size), doctest::Contains("not 2 steps"), KernelError);
}

}  // namespace layoutopt::testing
