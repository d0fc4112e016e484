#include "network/arena_plan.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <stdexcept>

#include "network/checked_size.h"

namespace layoutopt::kernels::network {

namespace {

int64_t round_up(int64_t value, int64_t alignment) {
  return checked_add(value, alignment - 1, "the arena size") / alignment * alignment;
}

int rest_after(const BufferLifetime& buffer, const MemoryRest& rest) {
  return buffer.bytes <= rest.max_bytes ? rest.steps : 0;
}

/// Whether a and b need memory apart: their lifetimes, each followed by its rest, overlap.
bool held_together(const BufferLifetime& a, const BufferLifetime& b, const MemoryRest& rest) {
  return a.first <= b.last + rest_after(b, rest) && b.first <= a.last + rest_after(a, rest);
}

void check(const std::vector<BufferLifetime>& buffers, int64_t alignment, const MemoryRest& rest) {
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0)
    throw std::invalid_argument("arena alignment " + std::to_string(alignment) + " is not a positive power of two");
  if (rest.steps < 0) throw std::invalid_argument("arena rest of " + std::to_string(rest.steps) + " steps is negative");
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].bytes < 0) throw std::invalid_argument("buffer " + std::to_string(i) + " has a negative size");
    if (buffers[i].last < buffers[i].first)
      throw std::invalid_argument("buffer " + std::to_string(i) + " ends before it starts");
  }
}

}  // namespace

ArenaPlan plan_arena(const std::vector<BufferLifetime>& buffers, int64_t alignment, MemoryRest rest) {
  check(buffers, alignment, rest);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });

  ArenaPlan plan{std::vector<int64_t>(buffers.size(), 0), 0};
  std::vector<size_t> placed;
  for (size_t index : order) {
    const BufferLifetime& buffer = buffers[index];
    // Memory ranges taken by placed buffers alive (or resting) at the same time, by start.
    std::vector<std::pair<int64_t, int64_t>> taken;
    for (size_t other : placed)
      if (held_together(buffer, buffers[other], rest))
        taken.emplace_back(plan.offsets[other], plan.offsets[other] + buffers[other].bytes);
    std::sort(taken.begin(), taken.end());
    // Where the buffer ends if placed at `offset`: past int64 is an error, not a wrap.
    const auto end_at = [&](int64_t at) { return checked_add(at, buffer.bytes, "an arena offset"); };
    int64_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (end_at(offset) <= begin) break;  // fits in the gap before this range
      offset = std::max(offset, round_up(end, alignment));
    }
    const int64_t buffer_end = end_at(offset);
    assert(offset % alignment == 0);
    assert(std::none_of(taken.begin(), taken.end(), [&](const auto& range) {
      return offset < range.second && range.first < buffer_end;
    }));  // buffers held together never share bytes
    plan.offsets[index] = offset;
    plan.bytes = std::max(plan.bytes, round_up(buffer_end, alignment));
    placed.push_back(index);
  }
  return plan;
}

}  // namespace layoutopt::kernels::network
