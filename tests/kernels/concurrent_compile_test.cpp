// Kernels compiled on several threads at once (networks, the tuner's builders and artifacts do
// that): each thread generates code on a target machine of its own and only linking into the
// JIT is serialized, so these check that what comes out is what one thread alone would have
// made, that threads asking for one kernel at once share one compile, and parallel_compile,
// which hands the work out.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kernel_check.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/parallel_compile.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::kernels {

namespace {

// A shape no other test compiles, so that the kernel cache holds none of its kernels yet
// and every thread below really compiles.
Conv2dDesc unshared_conv() { return testing::square_conv(24, 11, 11, 40, 3, 1, 1); }

testing::BlockedLayouts blocked(const OpLayouts& layouts) { return {layouts.input, layouts.weight, layouts.output}; }

}  // namespace

TEST_CASE("kernels compiled on several threads at once compute the reference convolution") {
  const Conv2dDesc desc = unshared_conv();
  const TunableOp op = TunableOp::conv2d(desc);
  constexpr int64_t kConfigs = 12;
  const int64_t step = op.space().size() / kConfigs;
  REQUIRE(step > 0);
  std::vector<std::optional<Kernel>> kernels(kConfigs);
  std::atomic<int> invalid{0};
  parallel_compile(kConfigs, 4, [&](size_t i) {
    try {
      kernels[i] = op.compile(static_cast<int64_t>(i) * step);
    } catch (const KernelError&) {
      ++invalid;  // a schedule the space holds but the shape refuses
    }
  });
  CHECK(invalid < kConfigs / 2);
  for (int64_t i = 0; i < kConfigs; ++i) {
    const std::optional<Kernel>& kernel = kernels[static_cast<size_t>(i)];
    if (!kernel) continue;
    const int64_t index = i * step;
    testing::check_against_reference(desc, *kernel, blocked(op.layouts(index)), "config " + std::to_string(index),
                                     static_cast<unsigned>(i));
  }
}

TEST_CASE("threads asking for one kernel at once share one compile") {
  const Conv2dDesc desc = testing::square_conv(40, 9, 9, 24, 3, 1, 1);  // unshared as well
  const TunableOp op = TunableOp::conv2d(desc);
  const int64_t index = op.default_index();
  std::vector<std::string> names(4);
  parallel_compile(names.size(), 4, [&](size_t t) { names[t] = op.compile(index).name(); });
  for (const std::string& name : names) CHECK(name == names.front());
  testing::check_against_reference(desc, op.compile(index), blocked(op.layouts(index)), "the shared kernel", 7);
}

TEST_CASE("parallel_compile calls every index once and rethrows the first failure after all returned") {
  constexpr size_t kCount = 37;
  std::vector<std::atomic<int>> calls(kCount);
  parallel_compile(kCount, 3, [&](size_t i) { ++calls[i]; });
  for (size_t i = 0; i < kCount; ++i) CHECK(calls[i] == 1);

  parallel_compile(0, 4, [](size_t) { FAIL("no index to call"); });

  // Several threads: the failure comes out once every call in flight has returned.
  std::atomic<int> running{0};
  const auto fail_at_5 = [&](size_t i) {
    ++running;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --running;
    if (i == 5) throw KernelError("config 5 fails");
  };
  CHECK_THROWS_WITH_AS(parallel_compile(kCount, 3, fail_at_5), "config 5 fails", KernelError);
  CHECK(running == 0);

  // One thread, in order: the calls after the failing one are skipped.
  std::vector<size_t> called;
  CHECK_THROWS_AS(parallel_compile(kCount, 1,
                                   [&](size_t i) {
                                     called.push_back(i);
                                     if (i == 5) throw KernelError("config 5 fails");
                                   }),
                  KernelError);
  CHECK(called == std::vector<size_t>{0, 1, 2, 3, 4, 5});
}

}  // namespace layoutopt::kernels
