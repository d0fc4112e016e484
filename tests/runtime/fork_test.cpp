// Forks: plan_forks puts independent chains of steps in different lanes only where running
// them side by side saves time; validate refuses forks whose lanes could race; a network
// runs each lane on its own thread and computes what it computes step by step; kernels of
// units run alone use scratch copies apart from every other kernel's.

#include <doctest/doctest.h>
#include <omp.h>

#include <array>
#include <set>

#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/runtime/error.h"
#include "layoutopt/runtime/fork.h"
#include "layoutopt/runtime/network.h"
#include "one_stage_networks.h"

namespace layoutopt::testing {

namespace {

using namespace layoutopt::runtime;

constexpr int64_t kFloats = 64;

// The thread that ran each step's last item, by step (see chain_network).
std::array<int, 4> thread_of_step{};

/// Output = input * scale + offset, item by item (one float per item); records its thread.
template <int Step, int Scale, int Offset>
void affine(const float* in, const float*, const float*, const float*, float* out, const float*, int64_t begin,
            int64_t end) {
  for (int64_t i = begin; i < end; ++i) out[i] = in[i] * Scale + Offset;
  thread_of_step[Step] = omp_get_thread_num();
}

KernelFunction resolve(const std::string& symbol) {
  if (symbol == "a1") return &affine<0, 1, 1>;
  if (symbol == "b1") return &affine<1, 2, 0>;
  if (symbol == "a2") return &affine<2, 1, 1>;
  if (symbol == "b2") return &affine<3, 2, 0>;
  return nullptr;
}

/// x -> a1 -> a2 and x -> b1 -> b2, listed a1, b1, a2, b2, every tensor in a storage of its
/// own (slots 0 x, 1 a1, 2 b1, 3 a2, 4 b2). With `b2_reads_a1`, b2 reads a1's output instead
/// of b1's: one chain, nothing independent after the first two steps.
NetworkSpec chain_network(bool b2_reads_a1 = false) {
  NetworkSpec n;
  n.name = "chains";
  add_slots_in_own_storage(n, 5, kFloats);
  const auto step = [&](const char* name, SlotId in, SlotId out) {
    n.steps.push_back({name, name, KernelStep{one_stage_kernel(name, kFloats), Operand::slot(in), {}, {}, {}, {}, out}});
  };
  step("a1", 0, 1);
  step("b1", 0, 2);
  step("a2", 1, 3);
  step("b2", b2_reads_a1 ? 1 : 2, 4);
  n.inputs = {{"x", {1, kFloats}, 0}};
  n.outputs = {{"a", {1, kFloats}, 3}, {"b", {1, kFloats}, 4}};
  return n;
}

const std::vector<double> kTeamMs{1, 1, 1, 1};

}  // namespace

TEST_CASE("independent chains go to different lanes when running them side by side pays") {
  const NetworkSpec spec = chain_network();
  // One fork of all four, not two of two: each fork costs its barrier (0.01).
  const std::vector<Fork> forks = plan_forks(spec, kTeamMs, std::vector<double>{1.5, 1.5, 1.5, 1.5}, 2, {1.0, 0.01, 48});
  REQUIRE(forks.size() == 1);
  CHECK(forks[0].begin == 0);
  CHECK(forks[0].end == 4);
  const std::vector<int32_t>& lanes = forks[0].lanes;
  CHECK(lanes[0] == lanes[2]);  // a1, a2
  CHECK(lanes[1] == lanes[3]);  // b1, b2
  CHECK(lanes[0] != lanes[1]);
  CHECK(forks[0].lane_count() == 2);
}

TEST_CASE("no fork where one thread per chain is slower than the team or the steps depend on each other") {
  // Alone, each step takes 2.5x its team time: two lanes of 5 against 4 with the team.
  CHECK(plan_forks(chain_network(), kTeamMs, std::vector<double>{2.5, 2.5, 2.5, 2.5}, 2, {1.0, 0.0, 48}).empty());
  // The same saving but contention eats it: 1.5 x 2 = 3 per step, 6 a lane.
  CHECK(plan_forks(chain_network(), kTeamMs, std::vector<double>{1.5, 1.5, 1.5, 1.5}, 2, {2.0, 0.0, 48}).empty());
  // b2 reads a1: a1, a2 and b2 form one group; only a1 and b1 at the front are independent,
  // and a fork of them (2 x 1.5) beats no team time of theirs (2).
  const std::vector<Fork> forks =
      plan_forks(chain_network(true), kTeamMs, std::vector<double>{1.5, 1.5, 1.5, 1.5}, 2, {1.0, 0.0, 48});
  CHECK_FALSE(forks.empty());
  for (const Fork& fork : forks) {
    const std::vector<int32_t>& lanes = fork.lanes;
    for (int32_t s = fork.begin; s < fork.end; ++s)
      for (int32_t t = s + 1; t < fork.end; ++t) {
        const bool a1_b2 = s == 0 && t == 3, a1_a2 = s == 0 && t == 2;  // b2 and a2 only both read a1
        if (a1_b2 || a1_a2) CHECK(lanes[static_cast<size_t>(s - fork.begin)] == lanes[static_cast<size_t>(t - fork.begin)]);
      }
  }
}

TEST_CASE("plan_forks refuses times that do not match the steps and fewer than two lanes") {
  CHECK_THROWS_AS((void)plan_forks(chain_network(), std::vector<double>{1, 1}, kTeamMs, 2), KernelError);
  CHECK_THROWS_AS((void)plan_forks(chain_network(), kTeamMs, kTeamMs, 1), KernelError);
}

TEST_CASE("forks whose lanes could race, or that do not fit the steps, are invalid") {
  NetworkSpec spec = chain_network();
  spec.forks = {{0, 4, {0, 1, 0, 1}}};
  CHECK_NOTHROW(validate(spec));
  spec.forks = {{0, 4, {0, 1, 1, 0}}};  // a2 reads what a1 writes, in another lane
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("one writes memory the other touches"), KernelError);
  spec.forks = {{0, 4, {0, 1, 0}}};
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("lists 3 lanes"), KernelError);
  spec.forks = {{0, 4, {1, 1, 1, 1}}};
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("one lane"), KernelError);
  spec.forks = {{2, 6, {0, 1, 0, 1}}};
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("past the 4 steps"), KernelError);
  spec.forks = {{0, 2, {0, 1}}, {1, 3, {0, 1}}};
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("out of order"), KernelError);
  // Arena memory shared between lanes: b1's output placed over a1's.
  spec.forks = {{0, 2, {0, 1}}};
  spec.storage_offsets[2] = spec.storage_offsets[1];
  CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("one writes memory the other touches"), KernelError);
}

TEST_CASE("a network runs each lane of a fork on its own thread, with the results of running step by step") {
  NetworkSpec spec = chain_network();
  spec.forks = {{0, 4, {0, 1, 0, 1}}};
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    Network network(spec, nullptr, resolve);
    std::vector<float> x(kFloats);
    for (int64_t i = 0; i < kFloats; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i) - 7;
    network.set_input(0, x);
    const int previous = omp_get_max_threads();
    omp_set_num_threads(threads);
    for (int run = 0; run < 2; ++run) network.execute();  // the first run at a thread count goes step by step
    omp_set_num_threads(previous);
    for (int64_t i = 0; i < kFloats; ++i) {
      CHECK(network.output(0)[static_cast<size_t>(i)] == x[static_cast<size_t>(i)] + 2);
      CHECK(network.output(1)[static_cast<size_t>(i)] == x[static_cast<size_t>(i)] * 4);
    }
    if (threads == 2) {
      CHECK(thread_of_step[0] == 0);
      CHECK(thread_of_step[2] == 0);
      CHECK(thread_of_step[1] == 1);
      CHECK(thread_of_step[3] == 1);
    }
  }
}

TEST_CASE("a program's forks read back as written") {
  ArtifactProgram program;
  program.target = {"x86_64-pc-linux-gnu", "znver4", {"avx2"}};
  program.threads = 2;
  program.network = chain_network();
  program.network.forks = {{0, 4, {0, 1, 0, 1}}};
  CHECK(decode_program(encode_program(program)) == program);
}

namespace {

// Scratch pointers each kernel of units saw, by kernel (0: 16 floats a copy, 1: 64).
std::array<std::set<const float*>, 2> scratch_seen;

template <int K>
void note_scratch(const float*, const float*, const float*, const float*, float* scratch, const float*, int64_t,
                  int64_t) {
#pragma omp critical
  scratch_seen[K].insert(scratch);
}

Kernel kernel_of_units(int k, int64_t floats, const std::shared_ptr<KernelScratch>& shared) {
  auto compiled = std::make_shared<CompiledFunction>();
  compiled->function = k == 0 ? &note_scratch<0> : &note_scratch<1>;
  compiled->work_items = 1;
  compiled->name = "units" + std::to_string(k);
  compiled->needs_weight = false;
  Kernel kernel(compiled->name,
                {{compiled,
                  {StageOperand::output, StageOperand::none, StageOperand::none, StageOperand::none,
                   StageOperand::scratch0, StageOperand::none},
                  true}},
                {floats}, 4);
  kernel.use_scratch(shared);
  return kernel;
}

}  // namespace

TEST_CASE("kernels of units of different sizes run alone side by side in copies apart") {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(2);
  auto shared = std::make_shared<KernelScratch>();
  const Kernel small = kernel_of_units(0, 16, shared), large = kernel_of_units(1, 64, shared);
  float output = 0;
  small({.output = &output});  // own-team calls size the shared scratch for 2 threads
  large({.output = &output});
  scratch_seen = {};
  // The large kernel's copy 0 is longer than the small one's pitch: copies strided by each
  // kernel's own size would overlap there.
#pragma omp parallel num_threads(2)
  (omp_get_thread_num() == 0 ? large : small)({.output = &output}, Team::alone);
  omp_set_num_threads(previous);
  REQUIRE(scratch_seen[0].size() == 1);
  REQUIRE(scratch_seen[1].size() == 1);
  const float* a = *scratch_seen[0].begin();
  const float* b = *scratch_seen[1].begin();
  // Thread 0's copy of the large kernel and thread 1's of the small one share no float.
  CHECK((a + 16 <= b || b + 64 <= a));
}

}  // namespace layoutopt::testing
