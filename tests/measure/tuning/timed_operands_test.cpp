#include "layoutopt/tuning/timed_operands.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include "layoutopt/timing/cache_info.h"
#include "layoutopt/timing/cost_policy.h"

using layoutopt::kernels::BufferSizes;
namespace timing = layoutopt::timing;
namespace tuning = layoutopt::tuning;

namespace {

bool page_aligned(const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 4096 == 0; }

}  // namespace

TEST_CASE("cold weight copies together span the cold-weight bytes, at least twice the last-level cache") {
  const size_t span = timing::cold_weight_bytes();
  CHECK(span >= size_t{64} << 20);
  const auto llc = static_cast<size_t>(timing::last_level_cache_bytes(timing::read_sysfs_caches()));
  CHECK(span >= std::min(2 * llc, size_t{1} << 30));  // twice the LLC, up to the documented 1 GiB
  CHECK(timing::cold_weight_copies(0) == 1);
  CHECK(timing::cold_weight_copies(span) == 1);
  CHECK(timing::cold_weight_copies(span + 1) == 1);
  CHECK(timing::cold_weight_copies(span - 1) == 2);
  const size_t conv_3x3_256 = size_t{256} * 256 * 9 * sizeof(float);  // 2.36 MB
  const int64_t copies = timing::cold_weight_copies(conv_3x3_256);
  CHECK(static_cast<size_t>(copies) * conv_3x3_256 >= span);
  CHECK(static_cast<size_t>(copies - 1) * conv_3x3_256 < span);
}

TEST_CASE("every weight up to the cold-weight span gets all its copies from the pool") {
  const size_t span = timing::cold_weight_bytes();
  // 0.4 of the span asks for 3 copies (1.2 spans), half a span and a page for 2: a pool of
  // just the span held one fewer of each.
  for (const size_t bytes : {span / 10 * 4, span / 2 + 4096, span / 7, span}) {
    const auto floats = static_cast<int64_t>(bytes / sizeof(float) / 1024 * 1024);
    const int64_t wanted = timing::cold_weight_copies(static_cast<size_t>(floats) * sizeof(float));
    const tuning::KernelOperands operands(BufferSizes{16, floats, 0, 0, 16}, wanted);
    CHECK(operands.weight_copies() == wanted);
    CHECK(static_cast<size_t>(operands.weight_copies() * floats) * sizeof(float) >= span);
  }
}

TEST_CASE("pooled weight copies lie inside the shared pool, as many as fit it") {
  const tuning::ColdWeightPool& pool = tuning::ColdWeightPool::shared();
  CHECK(pool.floats() * sizeof(float) >= 2 * timing::cold_weight_bytes() - 4096);
  CHECK(page_aligned(pool.data()));
  // A weight of a third of the pool: asked for 4 copies (the span rounded up), 3 fit.
  const auto third = static_cast<int64_t>(pool.floats() / 3 / 1024 * 1024);
  const tuning::KernelOperands operands(BufferSizes{16, third, 0, 0, 16}, 4);
  CHECK(operands.weight_copies() == 3);
  for (int64_t run = 0; run < 3; ++run) {
    const float* w = operands.args(run).weight;
    CHECK(w == pool.data() + run * third);
    CHECK(w + third <= pool.data() + pool.floats());
  }
}

TEST_CASE("kernel operands cycle through their weight copies and share the rest") {
  const BufferSizes sizes{100, 3000, 8, 0, 50};
  const tuning::KernelOperands operands(sizes, 3);
  CHECK(operands.weight_copies() == 3);
  std::set<const float*> weights;
  for (int64_t run = 0; run < 6; ++run) {
    const auto args = operands.args(run);
    weights.insert(args.weight);
    CHECK(page_aligned(args.weight));
    CHECK(args.input == operands.args(0).input);
    CHECK(args.output == operands.args(0).output);
    CHECK(args.residual == nullptr);  // absent operands are null
  }
  CHECK(weights.size() == 3);
  CHECK(operands.args(4).weight == operands.args(1).weight);
  // Copies do not overlap: 3000 floats round up to 3 pages apart.
  CHECK(operands.args(1).weight - operands.args(0).weight == 3072);
  // Every copy holds real values, not zeroed pages.
  for (int64_t run = 0; run < 3; ++run) {
    const float* w = operands.args(run).weight;
    int nonzero = 0;
    for (int i = 0; i < 3000; ++i) nonzero += (std::isfinite(w[i]) && w[i] != 0.0F) ? 1 : 0;
    CHECK(nonzero > 2900);
  }
}

TEST_CASE("operands without weights pass a null weight") {
  const tuning::KernelOperands operands(BufferSizes{16, 0, 0, 0, 16}, 4);
  CHECK(operands.args(0).weight == nullptr);
  CHECK(operands.args(3).weight == nullptr);
}
