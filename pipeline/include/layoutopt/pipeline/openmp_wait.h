#pragma once
// A warning for runs whose whole-network timings the OpenMP wait policy makes pessimistic.

namespace layoutopt::pipeline {

/// Warns on stderr when OMP_WAIT_POLICY asks for passive waiting. OpenMP threads then sleep
/// between parallel regions, and a network pays a wake-up on every one of its steps
/// (mobilenet-v2: 5.1 ms instead of 3.9 ms), so whole-network latencies come out slower
/// than users with the default (spinning) policy will see, and slower than the peers.
void warn_if_passive_openmp_wait();

}  // namespace layoutopt::pipeline
