#pragma once
// Splitting a transform's work items over OpenMP threads, on a team of its own or on the
// calling one (TransformTeam).

#include <omp.h>

#include <cstdint>

#include "layoutopt/layout/transform_team.h"

namespace layoutopt::layout::detail {

/// Calls body(begin, end) once per thread with its contiguous share of [0, count) (none when
/// the share is empty), as schedule(static) would. With TransformTeam::calling every thread
/// of the current team must call this; it returns once all have finished their share. With
/// TransformTeam::alone the calling thread does all of it.
template <class Body>
void for_each_share(int64_t count, TransformTeam team, const Body& body) {
  if (team == TransformTeam::alone) {
    if (count > 0) body(0, count);
    return;
  }
  const auto share = [&] {
    const int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    const int64_t begin = count * thread / threads, end = count * (thread + 1) / threads;
    if (begin < end) body(begin, end);
  };
  if (team == TransformTeam::calling) {
    share();
#pragma omp barrier
    return;
  }
#pragma omp parallel
  share();
}

}  // namespace layoutopt::layout::detail
