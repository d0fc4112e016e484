#include "layoutopt/kernels/parallel_compile.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace layoutopt::kernels {

int compile_threads() { return static_cast<int>(std::max(1U, std::thread::hardware_concurrency())); }

void parallel_compile(size_t count, int threads, const std::function<void(size_t)>& compile) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (size_t i = next++; i < count && !failed; i = next++) {
      try {
        compile(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
      }
    }
  };
  {
    std::vector<std::jthread> helpers;  // joined at the end of this block
    const size_t wanted = std::min(count, static_cast<size_t>(std::max(threads, 1)));
    for (size_t i = 1; i < wanted; ++i) helpers.emplace_back(work);
    work();
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace layoutopt::kernels
