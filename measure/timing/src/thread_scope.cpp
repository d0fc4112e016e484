#include "layoutopt/timing/thread_scope.h"

#include <omp.h>

namespace layoutopt::timing {

ThreadScope::ThreadScope(int threads) : previous_(omp_get_max_threads()), threads_(previous_) {
  if (threads > 0) {
    omp_set_num_threads(threads);
    threads_ = threads;
  }
}

ThreadScope::~ThreadScope() { omp_set_num_threads(previous_); }

}  // namespace layoutopt::timing
