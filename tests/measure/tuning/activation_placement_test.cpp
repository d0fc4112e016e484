#include "layoutopt/tuning/activation_placement.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "layoutopt/layout/layout.h"
#include "layoutopt/timing/random_fill.h"
#include "layoutopt/timing/thread_scope.h"

using layoutopt::layout::Layout;
namespace timing = layoutopt::timing;
namespace tuning = layoutopt::tuning;

TEST_CASE("a plane of rows spans the height axis and everything inside it") {
  const std::vector<int64_t> nchw{2, 64, 56, 28};
  CHECK(tuning::row_plane_floats(nchw, Layout::parse("NCHW16c")) == 56 * 28 * 16);
  CHECK(tuning::row_plane_floats(nchw, Layout::nchw()) == 56 * 28);
  CHECK(tuning::row_plane_floats(nchw, Layout::nhwc()) == 56 * 28 * 64);  // H outermost after N
  const std::vector<int64_t> nc{1, 1000};
  CHECK(tuning::row_plane_floats(nc, Layout::parse("NC")) == 1000);  // no rows: one plane
  CHECK_THROWS_AS((void)tuning::row_plane_floats(nchw, Layout::parse("NCHW48c")), layoutopt::layout::LayoutError);
}

TEST_CASE("the threads' shares tile each plane in order") {
  for (int64_t threads : {1, 2, 3, 7}) {
    int64_t next = 0;
    for (int64_t t = 0; t < threads; ++t) {
      const tuning::PlaneShare share = tuning::plane_share(1001, t, threads);
      CHECK(share.begin == next);
      CHECK(share.end - share.begin >= 1001 / threads);
      CHECK(share.end - share.begin <= 1001 / threads + 1);
      next = share.end;
    }
    CHECK(next == 1001);
  }
}

TEST_CASE("placing rows leaves every value as it was") {
  const timing::ThreadScope threads(2);
  std::vector<float> tensor(4 * 3 * 50);
  timing::fill_random(tensor, 7);
  tensor[5] = -1e-40f;  // a denormal stays a denormal
  const std::vector<float> before = tensor;
  tuning::write_rows_per_thread(tensor, 150);
  CHECK(tensor == before);
  CHECK_THROWS_AS(tuning::write_rows_per_thread(tensor, 7), std::invalid_argument);  // 600 is not planes of 7
  CHECK_THROWS_AS(tuning::write_rows_per_thread(tensor, 0), std::invalid_argument);
}

TEST_CASE("evicting memory from the caches keeps its values") {
  std::vector<float> memory(100000);
  timing::fill_random(memory, 3);
  const std::vector<float> before = memory;
  tuning::evict_from_caches(memory);
  tuning::evict_from_caches(std::span<float>(memory).subspan(7, 13));  // unaligned ends
  tuning::evict_from_caches({});
  CHECK(memory == before);
}
