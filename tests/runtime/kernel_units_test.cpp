// A kernel of units (Winograd's bands) in a team: each unit runs once, in the scratch copy of
// the thread that runs it, and a late thread's units are run by the others.
#include <doctest/doctest.h>
#include <omp.h>

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "layoutopt/runtime/kernel.h"

namespace layoutopt::testing {

using namespace layoutopt::runtime;

namespace {

constexpr int64_t kUnits = 8;
constexpr int64_t kCopyFloats = 32;

// Per unit: how many times it ran, the thread that ran it, and the scratch it saw.
std::array<std::atomic<int>, kUnits> unit_runs;
std::array<std::atomic<int>, kUnits> unit_thread;
std::array<std::atomic<const float*>, kUnits> unit_scratch;

// One work item per unit: items [begin, end) are units [begin, end).
void record_unit(const float*, const float*, const float*, const float*, float* scratch, const float*, int64_t begin,
                 int64_t end) {
  for (int64_t unit = begin; unit < end; ++unit) {
    unit_runs[static_cast<size_t>(unit)].fetch_add(1);
    unit_thread[static_cast<size_t>(unit)].store(omp_get_thread_num());
    unit_scratch[static_cast<size_t>(unit)].store(scratch);
  }
}

Kernel kernel_of_units() {
  auto compiled = std::make_shared<CompiledFunction>();
  compiled->function = &record_unit;
  compiled->work_items = kUnits;
  compiled->name = "record_unit";
  compiled->needs_weight = false;
  return Kernel(compiled->name,
                {{compiled,
                  {StageOperand::output, StageOperand::none, StageOperand::none, StageOperand::none,
                   StageOperand::scratch0, StageOperand::none}}},
                {kCopyFloats}, kUnits);
}

int64_t units_run() {
  int64_t runs = 0;
  for (const std::atomic<int>& r : unit_runs) runs += r.load();
  return runs;
}

void reset_records() {
  for (size_t u = 0; u < kUnits; ++u) {
    unit_runs[u] = 0;
    unit_thread[u] = -1;
    unit_scratch[u] = nullptr;
  }
}

}  // namespace

TEST_CASE("a late thread's units are run by the others, each once, in the runner's own scratch copy") {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(2);
  const Kernel kernel = kernel_of_units();
  float output = 0;
  kernel({.output = &output});  // an own-team call sizes the scratch for 2 threads
  reset_records();
  // Thread 1 calls only once every unit has run (or after 10 s, when the claims are broken and
  // the checks below fail): thread 0 must have run them all, its own share and thread 1's.
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (units_run() < kUnits && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    kernel({.output = &output}, Team::calling);
  }
  omp_set_num_threads(previous);

  int by_thread_0 = 0;
  std::array<const float*, 2> copy{nullptr, nullptr};
  for (size_t u = 0; u < kUnits; ++u) {
    CHECK(unit_runs[u] == 1);
    const int thread = unit_thread[u];
    REQUIRE((thread == 0 || thread == 1));
    if (thread == 0) ++by_thread_0;
    // Every unit a thread runs uses that thread's one copy.
    if (copy[static_cast<size_t>(thread)] == nullptr) copy[static_cast<size_t>(thread)] = unit_scratch[u];
    CHECK(unit_scratch[u] == copy[static_cast<size_t>(thread)]);
  }
  // A static split would have left thread 0 its 4 and waited for thread 1.
  CHECK(by_thread_0 == kUnits);
  // The two threads' copies share no float.
  if (copy[0] != nullptr && copy[1] != nullptr)
    CHECK((copy[0] + kCopyFloats <= copy[1] || copy[1] + kCopyFloats <= copy[0]));
}

TEST_CASE("a kernel of units run by one thread alone runs every unit in that thread's copy") {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(2);
  const Kernel kernel = kernel_of_units();
  float output = 0;
  kernel({.output = &output});
  reset_records();
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) kernel({.output = &output}, Team::alone);
  omp_set_num_threads(previous);
  for (size_t u = 0; u < kUnits; ++u) {
    CHECK(unit_runs[u] == 1);
    CHECK(unit_thread[u] == 1);
    CHECK(unit_scratch[u] == unit_scratch[0]);
  }
}

}  // namespace layoutopt::testing
