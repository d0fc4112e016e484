#include "layoutopt/runtime/item_claims.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace layoutopt::runtime;

namespace {

// Which thread ran each item, and how many times each item ran, over one call of a team.
struct Tally {
  explicit Tally(int64_t items) : runs(static_cast<size_t>(items)), runner(static_cast<size_t>(items)) {}
  std::vector<std::atomic<int>> runs;
  std::vector<std::atomic<int>> runner;

  void record(int thread, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      runs[static_cast<size_t>(i)].fetch_add(1);
      runner[static_cast<size_t>(i)].store(thread);
    }
  }
  [[nodiscard]] bool each_once() const {
    for (const auto& r : runs)
      if (r.load() != 1) return false;
    return true;
  }
};

// One call of `claims` by a team of `threads`; thread `late` (if any) starts `delay` late.
void team_call(ItemClaims& claims, int threads, Tally& tally, int late = -1,
               std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
  const auto items = static_cast<int64_t>(tally.runs.size());
#pragma omp parallel num_threads(threads)
  {
    const int thread = omp_get_thread_num();
    if (thread == late) std::this_thread::sleep_for(delay);
    claims.run(thread, omp_get_num_threads(), items,
               [&](int64_t begin, int64_t end) { tally.record(thread, begin, end); });
  }
}

}  // namespace

TEST_CASE("a team's claims run every item exactly once, call after call on one ItemClaims") {
  ItemClaims claims(4);
  // Item counts below, at and far above the team's size, and teams of changing sizes (a
  // network run at 4 threads, then 2, then 3): a call must never see an earlier call's ranges.
  for (int round = 0; round < 40; ++round)
    for (int threads : {4, 2, 3})
      for (int64_t items : {0, 1, 3, 4, 7, 64, 1000}) {
        Tally tally(items);
        team_call(claims, threads, tally);
        CHECK(tally.each_once());
      }
}

TEST_CASE("the others finish a late thread's range, and its items still run once") {
  ItemClaims claims(4);
  const int64_t items = 400;
  Tally tally(items);
  // Thread 0 owns items [0, 100); it starts long after the others have run out of work.
  team_call(claims, 4, tally, 0, std::chrono::milliseconds(100));
  REQUIRE(tally.each_once());
  int64_t taken = 0;
  for (int64_t i = 0; i < 100; ++i) taken += tally.runner[static_cast<size_t>(i)].load() != 0;
  CHECK(taken >= 50);  // a thief takes the back half of what is left, and comes back for more
  // The same claims work normally on the next call.
  Tally next(items);
  team_call(claims, 4, next);
  CHECK(next.each_once());
}

TEST_CASE("teams larger than the claims were made for, and single threads, split statically") {
  ItemClaims claims(2);
  Tally tally(90);
  team_call(claims, 3, tally, 2, std::chrono::milliseconds(20));  // no stealing: thread 2 is waited for
  REQUIRE(tally.each_once());
  for (int64_t i = 0; i < 90; ++i) CHECK(tally.runner[static_cast<size_t>(i)].load() == i / 30);
  CHECK_FALSE(claims.claims(3, 90));
  CHECK_FALSE(claims.claims(1, 90));
  CHECK(claims.claims(2, 90));

  std::vector<std::pair<int64_t, int64_t>> ranges;
  claims.run(0, 1, 17, [&](int64_t begin, int64_t end) { ranges.emplace_back(begin, end); });
  CHECK(ranges == std::vector<std::pair<int64_t, int64_t>>{{0, 17}});
}
