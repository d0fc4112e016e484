#pragma once
// Every measurement runs with an explicit OpenMP thread count, so that a kernel timed with
// 2 threads and a transform timed with 2 threads can be added up in one cost model.

namespace layoutopt::timing {

/// Sets the OpenMP thread count (omp_set_num_threads) for its lifetime and restores the
/// previous setting afterwards. threads <= 0 keeps the current setting.
class ThreadScope {
 public:
  explicit ThreadScope(int threads);
  ~ThreadScope();
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

  /// The thread count in effect inside the scope.
  [[nodiscard]] int threads() const { return threads_; }

 private:
  int previous_;
  int threads_;
};

}  // namespace layoutopt::timing
