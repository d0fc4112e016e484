#pragma once
// OmpThreads: OpenMP's thread count for a scope. It restores the count from before on the
// way out, also when a REQUIRE throws out of the test, so a failing test cannot leave the
// tests after it running on another count. (timing::ThreadScope does the same for the
// measuring libraries; test suites link only the library they test and what it links.)

#include <omp.h>

namespace layoutopt::testing {

class OmpThreads {
 public:
  explicit OmpThreads(int threads) : before_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(before_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

  /// Another count for the rest of the scope.
  void set(int threads) const { omp_set_num_threads(threads); }

 private:
  int before_;
};

}  // namespace layoutopt::testing
