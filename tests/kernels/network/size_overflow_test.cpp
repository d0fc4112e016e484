// Sizes past int64 are refused, never wrapped: a shape from a file may count fewer than 2^63
// elements (graph::element_count accepts it) yet hold more than 2^63 bytes, and the arena's
// offsets add sizes up. Each is a KernelError naming what overflowed; the sanitized build
// (scripts/test-sanitizers.sh, UBSan) would stop at a signed overflow on the way.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "network/arena_plan.h"
#include "network/checked_size.h"

using namespace layoutopt;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

}  // namespace

TEST_CASE("a tensor whose bytes pass int64 is refused naming the tensor") {
  // 2^61 floats: the element count fits in int64, the 2^63 bytes do not.
  const int64_t channels = int64_t{1} << 61;
  graph::Graph g("huge");
  const graph::ValueId x = g.add_input("x", {{1, channels, 1, 1}});
  g.add_output(g.add_node("flat", graph::Flatten{}, {x}));  // a view: no kernel to compile first
  CHECK_THROWS_WITH_AS((void)kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g)),
                       "the byte size of tensor 'x' [1, 2305843009213693952, 1, 1] overflows int64: "
                       "2305843009213693952 * 4",
                       kernels::KernelError);
}

TEST_CASE("arena offsets past int64 are refused") {
  using kernels::network::plan_arena;
  // Two buffers alive together: the second goes after the first, past int64.
  CHECK_THROWS_WITH_AS((void)plan_arena({{kMax / 2 + 1, 0, 1}, {kMax / 2 + 1, 0, 1}}),
                       doctest::Contains("an arena offset overflows int64"), kernels::KernelError);
  // One buffer whose size rounds up to the alignment past int64.
  CHECK_THROWS_WITH_AS((void)plan_arena({{kMax - 1, 0, 0}}, 64), doctest::Contains("the arena size overflows int64"),
                       kernels::KernelError);
  CHECK(plan_arena({{kMax / 2, 0, 1}}, 64).bytes == (kMax / 2 + 1));  // the largest that still fits, rounded up
}

TEST_CASE("checked arithmetic names what overflowed, and is exact below the limit") {
  using kernels::network::checked_add;
  using kernels::network::checked_mul;
  CHECK(checked_mul(int64_t{1} << 31, int64_t{1} << 31, "x") == int64_t{1} << 62);
  CHECK(checked_add(kMax - 1, 1, "x") == kMax);
  CHECK_THROWS_WITH_AS((void)checked_mul(int64_t{1} << 32, int64_t{1} << 31, "the product"),
                       "the product overflows int64: 4294967296 * 2147483648", kernels::KernelError);
  CHECK_THROWS_WITH_AS((void)checked_add(kMax, 1, "the sum"), doctest::Contains("the sum overflows int64"),
                       kernels::KernelError);
  CHECK_THROWS_AS((void)checked_mul(-kMax, 2, "x"), kernels::KernelError);  // downwards too
}
