// The arena planner: buffers alive at the same time (or within the rest after one's last
// use) never overlap; others share memory.

#include "network/arena_plan.h"

#include <doctest/doctest.h>

#include <random>
#include <stdexcept>

using layoutopt::kernels::network::BufferLifetime;
using layoutopt::kernels::network::plan_arena;

namespace {

/// Whether a and b may not share memory: their lifetimes come within `rest` steps of each other.
using layoutopt::kernels::network::MemoryRest;

int rest_after(const BufferLifetime& b, const MemoryRest& rest) { return b.bytes <= rest.max_bytes ? rest.steps : 0; }

/// Whether a and b may not share memory: one's rest follows it into the other's lifetime.
bool close_in_time(const BufferLifetime& a, const BufferLifetime& b, const MemoryRest& rest) {
  return a.first <= b.last + rest_after(b, rest) && b.first <= a.last + rest_after(a, rest);
}

void check_no_conflicts(const std::vector<BufferLifetime>& buffers, int64_t alignment, MemoryRest rest = {}) {
  const auto plan = plan_arena(buffers, alignment, rest);
  REQUIRE(plan.offsets.size() == buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    CHECK(plan.offsets[i] % alignment == 0);
    CHECK(plan.offsets[i] + buffers[i].bytes <= plan.bytes);
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!close_in_time(buffers[i], buffers[j], rest) || buffers[i].bytes == 0 || buffers[j].bytes == 0) continue;
      const bool apart = plan.offsets[i] + buffers[i].bytes <= plan.offsets[j] ||
                         plan.offsets[j] + buffers[j].bytes <= plan.offsets[i];
      CHECK_MESSAGE(apart, "buffers " << i << " and " << j << " overlap while both alive or resting");
    }
  }
}

}  // namespace

TEST_CASE("a chain of layers needs two buffers, not one per layer") {
  // Each layer reads the previous output and writes its own: lifetimes [i, i+1].
  std::vector<BufferLifetime> chain;
  for (int i = 0; i < 10; ++i) chain.push_back({1000, i, i + 1});
  const auto plan = plan_arena(chain, 8);
  CHECK(plan.bytes == 2 * 1000);
  check_no_conflicts(chain, 8);
}

TEST_CASE("memory rests after its last use: a chain then rotates through more buffers") {
  std::vector<BufferLifetime> chain;
  for (int i = 0; i < 10; ++i) chain.push_back({1000, i, i + 1});
  // Buffer i (steps i, i+1) is first free again for buffer i+4, whose first step i+4 comes
  // 3 steps after i's last: a rest of 2 steps needs four buffers, a rest of 1 three.
  CHECK(plan_arena(chain, 8, {2, 1000}).bytes == 4 * 1000);
  CHECK(plan_arena(chain, 8, {1, 1000}).bytes == 3 * 1000);
  check_no_conflicts(chain, 8, {2, 1000});
  // Buffers above the size limit do not rest.
  CHECK(plan_arena(chain, 8, {2, 999}).bytes == 2 * 1000);
}

TEST_CASE("buffers alive together are placed apart and aligned") {
  const std::vector<BufferLifetime> buffers{{100, 0, 3}, {50, 1, 2}, {70, 2, 5}, {30, 4, 6}};
  const auto plan = plan_arena(buffers, 64);
  // 100 and 70 are alive at step 2 together with 50: at least 100 + 50 + 70 rounded up.
  CHECK(plan.bytes >= 64 * 2 + 64 + 128);
  check_no_conflicts(buffers, 64);
}

TEST_CASE("random lifetimes never conflict") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<BufferLifetime> buffers;
    for (int i = 0; i < 40; ++i) {
      const int first = static_cast<int>(rng() % 30);
      buffers.push_back({static_cast<int64_t>(rng() % 5000), first, first + static_cast<int>(rng() % 8)});
    }
    check_no_conflicts(buffers, 64);
    check_no_conflicts(buffers, 64, {2, 2500});
  }
}

TEST_CASE("inconsistent buffers are refused") {
  CHECK_THROWS_AS((void)plan_arena({{10, 3, 2}}), std::invalid_argument);
  CHECK_THROWS_AS((void)plan_arena({{-1, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS((void)plan_arena({{10, 0, 0}}, 48), std::invalid_argument);
  CHECK_THROWS_AS((void)plan_arena({{10, 0, 0}}, 64, {-1, 100}), std::invalid_argument);
}
