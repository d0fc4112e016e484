// JitSession: a model compiled with the JIT behind runtime::Session's interface. It runs
// bit-identical to an artifact of the same graph, schedule and thread count, and refuses
// wrong tensors and models as the runtime's Session does.

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/pipeline/compile_model.h"
#include "layoutopt/pipeline/jit_session.h"
#include "layoutopt/pipeline/load_model.h"
#include "layoutopt/runtime/session.h"
#include "pipeline_fixtures.h"

namespace layoutopt::testing {

namespace {

const std::string kTiny = LAYOUTOPT_SOURCE_DIR "/data/onnx/tiny-convnet.onnx";

std::vector<float> ramp(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 17) * 0.125F - 1.0F;
  return values;
}

/// Runs a session (JitSession or runtime::Session) on `input`; its first output.
template <class Session>
std::vector<float> first_output(Session& session, const std::vector<float>& input) {
  const runtime::TensorSpec& in = session.inputs().front();
  std::vector<std::vector<float>> outputs;
  std::vector<runtime::MutableTensorView> views;
  for (const runtime::TensorSpec& out : session.outputs()) {
    outputs.emplace_back(static_cast<size_t>(graph::element_count(out.shape)), -1.0F);
  }
  for (size_t o = 0; o < outputs.size(); ++o) views.push_back({outputs[o].data(), session.outputs()[o].shape});
  const runtime::TensorView view{input.data(), in.shape};
  session.run({&view, 1}, views);
  return outputs.front();
}

}  // namespace

TEST_CASE("a JitSession runs bit-identical to an artifact of the same schedule and threads") {
  pipeline::JitSession jit = pipeline::JitSession::compile(kTiny, {.threads = 1});
  CHECK(jit.threads() == 1);
  CHECK(jit.schedule_source().starts_with("default schedule"));
  REQUIRE(jit.inputs().size() == 1);
  CHECK(jit.inputs().front().shape == std::vector<int64_t>{1, 3, 16, 16});
  CHECK(jit.outputs().front().shape == std::vector<int64_t>{1, 10});

  graph::Graph g = pipeline::load_model(kTiny).graph;
  (void)graph::prepare_for_inference(g);
  const ScratchFolder folder("jit-session");
  (void)pipeline::compile_model({.graph = g,
                                 .schedule = kernels::default_network_schedule(g),
                                 .directory = folder.path(),
                                 .threads = 1,
                                 .quiet = true});
  runtime::Session aot = runtime::Session::load(folder.path());
  CHECK(aot.inputs() == jit.inputs());
  CHECK(aot.outputs() == jit.outputs());

  const std::vector<float> input = ramp(3 * 16 * 16);
  const std::vector<float> expected = first_output(aot, input);
  const std::vector<float> actual = first_output(jit, input);
  REQUIRE(actual.size() == expected.size());
  CHECK(std::memcmp(actual.data(), expected.data(), actual.size() * sizeof(float)) == 0);
  CHECK(first_output(jit, input) == actual);  // runs repeat
}

TEST_CASE("a JitSession refuses tensors of the wrong shape or count, naming them") {
  pipeline::JitSession jit = pipeline::JitSession::compile(kTiny, {.threads = 1});
  std::vector<float> input(3 * 16 * 16), output(10);
  const std::vector<int64_t> wrong{1, 3, 16, 15}, out_shape{1, 10};
  const runtime::TensorView in{input.data(), wrong};
  const runtime::MutableTensorView out{output.data(), out_shape};
  CHECK_THROWS_WITH_AS(jit.run({&in, 1}, {&out, 1}), doctest::Contains("must have shape [1,3,16,16], got [1,3,16,15]"),
                       kernels::KernelError);
  CHECK_THROWS_WITH_AS(jit.run({&in, 1}, {}), doctest::Contains("1 inputs and 1 outputs, got 1 and 0"),
                       kernels::KernelError);
}

TEST_CASE("a JitSession refuses an unknown model and a negative thread count") {
  CHECK_THROWS_WITH_AS((void)pipeline::JitSession::compile("no-such-network"), doctest::Contains("unknown model"),
                       graph::GraphError);
  CHECK_THROWS_AS((void)pipeline::JitSession::compile(kTiny, {.threads = -1}), kernels::KernelError);
}

}  // namespace layoutopt::testing
