// Ahead-of-time artifacts against the JIT: the same plan, inputs and thread count give
// bit-identical outputs through the C API, the C++ wrapper and the runtime's Session; and
// loading refuses every kind of bad artifact with a message that says which.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <thread>

#include "deploy_fixtures.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/cpu/features.h"
#include "layoutopt/kernels/network/forks.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/runtime/layoutopt.h"
#include "layoutopt/runtime/layoutopt.hpp"
#include "layoutopt/runtime/session.h"
#include "support/omp_threads.h"
#include "support/tolerances.h"

namespace layoutopt::testing {

namespace {

/// A network compiled both ways for one schedule, kept for the whole test run.
struct Compiled {
  graph::Graph graph;
  kernels::NetworkSchedule schedule;
  ScratchFolder folder;
  kernels::AheadOfTimeResult result;

  Compiled(const std::string& name, int64_t image_size, bool mixed)
      : graph(prepared_zoo(name, image_size)),
        schedule(mixed ? mixed_schedule(graph, 5) : kernels::default_network_schedule(graph)),
        folder(name) {
    result = kernels::compile_ahead_of_time(graph, schedule, {.directory = folder.path(), .threads = kThreads});
  }
  [[nodiscard]] std::filesystem::path artifact() const { return folder.path(); }
  [[nodiscard]] std::vector<float> input() const {
    return random_values(static_cast<size_t>(graph::element_count(graph.value(graph.inputs()[0]).type.shape)), 17);
  }
};

const Compiled& resnet18() {
  static const Compiled compiled("resnet-18", 224, false);
  return compiled;
}

/// SqueezeNet 1.1 at 96x96 with random conv configs: concats, max and average pooling,
/// transforms between the convs' layouts and the flexible nodes' blocks, Winograd and GEMM convs.
const Compiled& squeezenet() {
  static const Compiled compiled("squeezenet-1.1", 96, true);
  return compiled;
}

/// DenseNet-121 at 32x32: its dense layers' 1x1 convs read their batch norms as prologues,
/// whose scales and shifts travel in the convs' bias operands.
const Compiled& densenet() {
  static const Compiled compiled("densenet-121", 32, false);
  return compiled;
}

/// The JIT's outputs for `input`, at kThreads threads.
std::vector<kernels::reference::HostTensor> jit_outputs(const Compiled& c, const std::vector<float>& input) {
  std::vector<kernels::reference::HostTensor> first, second;
  {
    const layoutopt::testing::OmpThreads threads(kThreads);
    kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(c.graph, c.schedule);
    kernels::reference::HostTensor tensor(c.graph.value(c.graph.inputs()[0]).type.shape);
    tensor.data = input;
    first = network.run({tensor});
    second = network.run({tensor});  // in one team
  }
  REQUIRE(first.size() == second.size());
  for (size_t o = 0; o < first.size(); ++o) CHECK(first[o].data == second[o].data);
  return second;
}

/// Outputs through the C API, run twice (the second run shares one team across kernels).
std::vector<std::vector<float>> c_api_outputs(const std::filesystem::path& artifact, const std::vector<float>& input) {
  const lo_options options{kThreads};
  lo_session* session = lo_load(artifact.c_str(), &options);
  REQUIRE_MESSAGE(session != nullptr, lo_last_error());
  REQUIRE(lo_input_count(session) == 1);
  int64_t in_shape[8];
  const int in_rank = lo_input_shape(session, 0, in_shape, 8);
  REQUIRE(in_rank > 0);
  lo_tensor in{const_cast<float*>(input.data()), in_shape, static_cast<size_t>(in_rank)};
  std::vector<std::vector<float>> outputs(lo_output_count(session));
  std::vector<std::vector<int64_t>> shapes(outputs.size(), std::vector<int64_t>(8));
  std::vector<lo_tensor> out;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const int rank = lo_output_shape(session, o, shapes[o].data(), 8);
    REQUIRE(rank > 0);
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) count *= shapes[o][static_cast<size_t>(d)];
    outputs[o].assign(static_cast<size_t>(count), -1.0F);
    out.push_back({outputs[o].data(), shapes[o].data(), static_cast<size_t>(rank)});
  }
  for (int run = 0; run < 2; ++run) CHECK_MESSAGE(lo_run(session, &in, 1, out.data(), out.size()) == 0, lo_last_error());
  lo_free(session);
  return outputs;
}

/// The artifact in `artifact` (c's own unless given) gives the JIT's outputs for c, bit for bit.
void check_bit_identical(const Compiled& c, const std::filesystem::path& artifact = {}) {
  const std::vector<float> input = c.input();
  const std::vector<kernels::reference::HostTensor> expected = jit_outputs(c, input);
  const std::vector<std::vector<float>> actual = c_api_outputs(artifact.empty() ? c.artifact() : artifact, input);
  REQUIRE(actual.size() == expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    REQUIRE(actual[o].size() == expected[o].data.size());
    CHECK(std::memcmp(actual[o].data(), expected[o].data.data(), actual[o].size() * sizeof(float)) == 0);
    CHECK(std::any_of(actual[o].begin(), actual[o].end(), [](float v) { return v != 0.0F; }));
  }
}

/// A copy of an artifact folder to damage.
struct ArtifactCopy {
  ScratchFolder folder;
  explicit ArtifactCopy(const Compiled& c, const std::string& name) : folder(name) {
    std::filesystem::copy(c.artifact(), folder.path(),
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
  }
  [[nodiscard]] std::filesystem::path file(const char* name) const { return folder.path() / name; }
};

/// lo_load's error for the folder, or "" when it loads.
std::string load_error(const std::filesystem::path& artifact) {
  lo_session* session = lo_load(artifact.c_str(), nullptr);
  if (session != nullptr) {
    lo_free(session);
    return "";
  }
  return lo_last_error();
}

}  // namespace

TEST_CASE("resnet-18 compiled ahead of time runs bit-identical to the JIT through the C API") {
  const Compiled& c = resnet18();
  CHECK(c.result.symbols > 0);
  CHECK(c.result.steps >= c.result.symbols / 4);
  check_bit_identical(c);
}

TEST_CASE("squeezenet with transforms, concats, pooling, Winograd and GEMM convs runs bit-identical to the JIT") {
  const Compiled& c = squeezenet();
  CHECK(c.result.transforms > 0);
  const runtime::ArtifactProgram program = runtime::read_program_file(c.artifact() / runtime::kProgramFile);
  const auto has = [&](auto predicate) { return std::any_of(program.network.steps.begin(), program.network.steps.end(), predicate); };
  CHECK(has([](const runtime::StepSpec& s) { return std::holds_alternative<runtime::ConcatStep>(s.action); }));
  CHECK(has([](const runtime::StepSpec& s) {
    const auto* k = std::get_if<runtime::KernelStep>(&s.action);
    return k != nullptr && k->kernel.stages.size() > 1;
  }));
  CHECK(has([](const runtime::StepSpec& s) {  // a 1x1 conv as a GEMM over pixels
    const auto* k = std::get_if<runtime::KernelStep>(&s.action);
    return k != nullptr && k->kernel.stages.front().symbol.find("gemm_conv2d") != std::string::npos;
  }));
  check_bit_identical(c);
}

TEST_CASE("densenet-121's 1x1 convs with input prologues run bit-identical to the JIT from an artifact") {
  const Compiled& c = densenet();
  int prologues = 0;
  for (const graph::Node& node : c.graph.nodes())
    if (const auto* conv = std::get_if<graph::Conv2d>(&node.op)) prologues += conv->prologue ? 1 : 0;
  CHECK(prologues == 6 + 12 + 24 + 16);
  check_bit_identical(c);
}

TEST_CASE("squeezenet's fire modules run side by side from an artifact, bit-identical to the JIT without forks") {
  // Forks wherever plan_forks finds independent steps at equal times: each fire module's
  // two expand convs, and whatever else the random configs leave independent.
  const Compiled& c = squeezenet();
  const kernels::CompiledNetwork sequential = kernels::CompiledNetwork::compile(c.graph, c.schedule);
  const std::vector<double> ms(sequential.steps().size(), 1.0);
  const std::vector<kernels::Fork> forks =
      kernels::plan_forks(sequential.network().spec(), ms, ms, kThreads, {1.0, 0.0, 48});
  REQUIRE(forks.size() >= 8);  // one per fire module at least
  ScratchFolder folder("squeezenet-forks");
  const kernels::AheadOfTimeResult result =
      kernels::compile_ahead_of_time(c.graph, c.schedule, {.directory = folder.path(), .threads = kThreads, .forks = forks});
  CHECK(result.forks == forks.size());
  CHECK(runtime::read_program_file(folder.path() / runtime::kProgramFile).network.forks == forks);
  check_bit_identical(c, folder.path());
}

TEST_CASE("the C++ wrapper and the runtime Session give the C API's outputs") {
  const Compiled& c = squeezenet();
  const std::vector<float> input = c.input();
  const std::vector<std::vector<float>> expected = c_api_outputs(c.artifact(), input);
  layoutopt::Session wrapper(c.artifact().string(), {kThreads});
  CHECK(wrapper.input_shape(0) == std::vector<int64_t>{1, 3, 96, 96});
  CHECK(wrapper.run({input}) == expected);
  CHECK_THROWS_WITH_AS(wrapper.run({std::vector<float>(5)}), doctest::Contains("elements"), layoutopt::Error);
  CHECK_THROWS_WITH_AS(layoutopt::Session("/nonexistent/artifact"), doctest::Contains("cannot open"), layoutopt::Error);
}

TEST_CASE("one session run from eight threads at once gives every call the output it gives alone") {
  // SqueezeNet with Winograd: kernels with scratch, concats and transforms, all per arena.
  const Compiled& c = squeezenet();
  const std::vector<std::vector<float>> inputs{c.input(), random_values(c.input().size(), 23)};
  const layoutopt::Session wrapper(c.artifact().string(), {kThreads});
  const runtime::Session session = runtime::Session::load(c.artifact(), {.threads = kThreads});
  std::vector<std::vector<float>> expected;
  for (const std::vector<float>& input : inputs) expected.push_back(wrapper.run({input}).front());
  REQUIRE(expected[0] != expected[1]);

  constexpr int kCallers = 8, kRuns = 12;
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> callers;
  for (int caller = 0; caller < kCallers; ++caller)
    callers.emplace_back([&, caller] {
      for (int run = 0; run < kRuns; ++run) {
        const size_t which = static_cast<size_t>((caller + run) % 2);
        try {
          // Half the callers through the C API (the wrapper), half through runtime::Session.
          std::vector<float> output(expected[which].size(), -1.0F);
          if (caller % 2 == 0) {
            output = wrapper.run({inputs[which]}).front();
          } else {
            const std::vector<int64_t>& in_shape = session.inputs()[0].shape;
            const std::vector<int64_t>& out_shape = session.outputs()[0].shape;
            const runtime::TensorView in{inputs[which].data(), in_shape};
            const runtime::MutableTensorView out{output.data(), out_shape};
            session.run(std::span(&in, 1), std::span(&out, 1));
          }
          if (std::memcmp(output.data(), expected[which].data(), output.size() * sizeof(float)) != 0) ++wrong;
        } catch (const std::exception&) {
          ++failed;
        }
      }
    });
  for (std::thread& caller : callers) caller.join();
  CHECK(wrong == 0);
  CHECK(failed == 0);
  // Each call in flight had an arena of its own, and no more were made than callers.
  CHECK(session.networks_made() >= 1);
  CHECK(session.networks_made() <= static_cast<size_t>(kCallers / 2));
}

TEST_CASE("the artifact records the JIT's CPU and the instruction sets it needs") {
  const runtime::ArtifactProgram program = runtime::read_program_file(resnet18().artifact() / runtime::kProgramFile);
  CHECK(program.target.triple.rfind("x86_64", 0) == 0);
  CHECK(program.target.cpu == resnet18().result.cpu);
  CHECK(std::find(program.target.features.begin(), program.target.features.end(), "sse2") != program.target.features.end());
  CHECK(cpu::missing_features(program.target.features).empty());
  CHECK(program.threads == kThreads);
}

TEST_CASE("loading refuses an artifact for a CPU lacking an instruction set it was compiled for") {
  const ArtifactCopy copy(squeezenet(), "fake-feature");
  runtime::ArtifactProgram program = runtime::read_program_file(copy.file(runtime::kProgramFile));
  std::string absent;
  for (const std::string& feature : cpu::checkable_features())
    if (!cpu::missing_features({feature}).empty()) absent = feature;
  REQUIRE_MESSAGE(!absent.empty(), "this CPU has every instruction set the runtime can check");
  program.target.features.push_back(absent);
  runtime::write_program_file(copy.file(runtime::kProgramFile), program);
  const std::string error = load_error(copy.folder.path());
  CHECK(error.find(absent) != std::string::npos);
  CHECK(error.find("lacks") != std::string::npos);
}

TEST_CASE("loading refuses a truncated or damaged program.bin") {
  const ArtifactCopy copy(squeezenet(), "program");
  const std::vector<char> bytes = read_bytes(copy.file(runtime::kProgramFile));
  REQUIRE(bytes.size() > 100);
  SUBCASE("truncated") {
    write_bytes(copy.file(runtime::kProgramFile), {bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 2)});
    CHECK(load_error(copy.folder.path()).find("truncated") != std::string::npos);
  }
  SUBCASE("a byte flipped") {
    std::vector<char> damaged = bytes;
    damaged[bytes.size() - 7] = static_cast<char>(damaged[bytes.size() - 7] ^ 0x10);
    write_bytes(copy.file(runtime::kProgramFile), damaged);
    CHECK(load_error(copy.folder.path()).find("damaged") != std::string::npos);
  }
  SUBCASE("not a program") {
    write_bytes(copy.file(runtime::kProgramFile), {'h', 'e', 'l', 'l', 'o'});
    CHECK(load_error(copy.folder.path()).find("not a layoutopt program") != std::string::npos);
  }
  SUBCASE("missing") {
    std::filesystem::remove(copy.file(runtime::kProgramFile));
    CHECK(load_error(copy.folder.path()).find("cannot open") != std::string::npos);
  }
}

TEST_CASE("loading refuses weights that are truncated, damaged or from another compile") {
  const ArtifactCopy copy(squeezenet(), "weights");
  const std::vector<char> bytes = read_bytes(copy.file(runtime::kWeightsFile));
  SUBCASE("truncated") {
    write_bytes(copy.file(runtime::kWeightsFile), {bytes.begin(), bytes.end() - 4});
    CHECK(load_error(copy.folder.path()).find("truncated") != std::string::npos);
  }
  SUBCASE("a byte flipped") {
    std::vector<char> damaged = bytes;
    damaged[bytes.size() / 2] = static_cast<char>(damaged[bytes.size() / 2] ^ 0x01);
    write_bytes(copy.file(runtime::kWeightsFile), damaged);
    CHECK(load_error(copy.folder.path()).find("damaged") != std::string::npos);
  }
  SUBCASE("another network's") {
    std::filesystem::copy_file(resnet18().artifact() / runtime::kWeightsFile, copy.file(runtime::kWeightsFile),
                               std::filesystem::copy_options::overwrite_existing);
    CHECK(load_error(copy.folder.path()).find("another compile") != std::string::npos);
  }
  SUBCASE("the same size, other values") {
    std::vector<char> other = bytes;
    std::reverse(other.begin() + 64, other.end());  // the header stays; its checksum no longer matches
    write_bytes(copy.file(runtime::kWeightsFile), other);
    CHECK(load_error(copy.folder.path()).find("damaged") != std::string::npos);
  }
}

TEST_CASE("loading refuses an artifact without its shared object") {
  const ArtifactCopy copy(squeezenet(), "no-code");
  std::filesystem::remove(copy.file(runtime::kSharedObjectFile));
  CHECK(load_error(copy.folder.path()).find("network.so") != std::string::npos);
}

TEST_CASE("runs refuse inputs and outputs of the wrong shape") {
  const lo_options options{kThreads};
  lo_session* session = lo_load(squeezenet().artifact().c_str(), &options);
  REQUIRE_MESSAGE(session != nullptr, lo_last_error());
  std::vector<float> input = squeezenet().input();
  std::vector<float> output(1000);
  const int64_t wrong[4] = {1, 3, 96, 95};
  const int64_t out_shape[2] = {1, 1000};
  lo_tensor in{input.data(), wrong, 4};
  lo_tensor out{output.data(), out_shape, 2};
  CHECK(lo_run(session, &in, 1, &out, 1) == -1);
  CHECK(std::string(lo_last_error()).find("must have shape [1,3,96,96]") != std::string::npos);
  const int64_t right[4] = {1, 3, 96, 96};
  in.shape = right;
  CHECK(lo_run(session, &in, 1, &out, 0) == -1);
  CHECK(std::string(lo_last_error()).find("1 outputs, got 1 and 0") != std::string::npos);
  CHECK(lo_run(session, &in, 1, &out, 1) == 0);
  CHECK(std::string(lo_last_error()).empty());
  CHECK(lo_input_shape(session, 3, nullptr, 0) == -1);
  lo_free(session);
}

TEST_CASE("a network with a reference fallback is refused at compile time naming the node and operator") {
  // Local response normalization has no kernel: it runs the reference.
  graph::Graph g("with-fallback");
  const auto x = g.add_input("x", {{1, 8, 4, 4}});
  g.add_output(g.add_node("norm", graph::Lrn{}, {x}));
  const ScratchFolder folder("fallback");
  CHECK_THROWS_WITH_AS(kernels::compile_ahead_of_time(g, kernels::default_network_schedule(g), {.directory = folder.path()}),
                       doctest::Contains("node 'norm' (lrn)"), kernels::KernelError);
}

TEST_CASE("a 4-D transpose is a layout copy an artifact holds, and runs it like the JIT") {
  graph::Graph g("transpose-nhwc");
  const auto x = g.add_input("x", {{1, 8, 4, 6}});
  g.add_output(g.add_node("swap", graph::Transpose{{0, 2, 3, 1}}, {g.add_node("relu", graph::Relu{}, {x})}));
  const kernels::NetworkSchedule schedule = kernels::default_network_schedule(g);
  const ScratchFolder folder("transpose");
  kernels::compile_ahead_of_time(g, schedule, {.directory = folder.path(), .threads = kThreads});
  kernels::reference::HostTensor input({1, 8, 4, 6});
  input.data = random_values(input.data.size(), 5);
  kernels::CompiledNetwork jit = kernels::CompiledNetwork::compile(g, schedule);
  const std::vector<kernels::reference::HostTensor> expected = jit.run({input});
  const std::vector<std::vector<float>> actual = c_api_outputs(folder.path(), input.data);
  REQUIRE(actual.size() == 1);
  CHECK(actual[0] == expected[0].data);
  CHECK(expected[0].shape == graph::Shape{1, 4, 6, 8});
}

TEST_CASE("a batch-1 channel split is a view an artifact keeps at its offset, and runs it like the JIT") {
  graph::Graph g("split-views");
  const auto x = g.add_input("x", {{1, 16, 5, 6}});
  const auto mixed = g.add_node("relu", graph::Relu{}, {x});
  const auto left = g.add_node("left", graph::Slice{.axis = 1, .start = 0, .end = 8}, {mixed});
  const auto right = g.add_node("right", graph::Slice{.axis = 1, .start = 8, .end = 16}, {mixed});
  g.add_output(g.add_node("product", graph::Mul{}, {right, g.add_node("sigmoid", graph::Sigmoid{}, {left})}));
  g.add_output(g.add_node("swapped", graph::Concat{.axis = 1}, {right, left}));
  const kernels::NetworkSchedule schedule = kernels::default_network_schedule(g);
  const ScratchFolder folder("split-views");
  kernels::compile_ahead_of_time(g, schedule, {.directory = folder.path(), .threads = kThreads});
  const runtime::ArtifactProgram program = runtime::read_program_file(folder.path() / runtime::kProgramFile);
  for (const runtime::StepSpec& step : program.network.steps) {
    CAPTURE(step.name);
    CHECK(step.name != "left");  // views: no step, a slot 8 channels into the relu's output
    CHECK(step.name != "right");
  }
  kernels::reference::HostTensor input({1, 16, 5, 6});
  input.data = random_values(input.data.size(), 7);
  kernels::CompiledNetwork jit = kernels::CompiledNetwork::compile(g, schedule);
  const std::vector<kernels::reference::HostTensor> expected = jit.run({input});
  const std::vector<kernels::reference::HostTensor> reference = kernels::reference::run_graph(g, {input});
  const std::vector<std::vector<float>> actual = c_api_outputs(folder.path(), input.data);
  REQUIRE(actual.size() == 2);
  for (size_t o = 0; o < 2; ++o) {
    CAPTURE(o);
    CHECK(actual[o] == expected[o].data);
    CHECK(kernels::reference::max_relative_difference(reference[o], expected[o]) < kCompiledNetworkRelative);
  }
}

}  // namespace layoutopt::testing
