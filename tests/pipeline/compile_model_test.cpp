// `layoutopt compile`'s library call: it writes an artifact the runtime loads, and refuses a
// plan made on another CPU (its knobs and layouts were chosen for that one).

#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>

#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/pipeline/compile_model.h"
#include "layoutopt/runtime/session.h"
#include "layoutopt/tuning/target.h"
#include "pipeline_fixtures.h"

namespace layoutopt::testing {

TEST_CASE("compile_model writes an artifact for a plan made on this CPU") {
  const graph::Graph g = conv_chain();
  const ScratchFolder folder("compile");
  const kernels::AheadOfTimeResult result = pipeline::compile_model({.graph = g,
                                                                     .schedule = kernels::default_network_schedule(g),
                                                                     .plan_target = tuning::host_target(1),
                                                                     .directory = folder.path() / "artifact",
                                                                     .threads = 1,
                                                                     .quiet = true});
  CHECK(result.steps == 2 + result.transforms);  // the two convs, and transforms in and out of their blocks
  CHECK(result.symbols >= 2);
  const runtime::Session session = runtime::Session::load(folder.path() / "artifact");
  CHECK(session.threads() == 1);
  CHECK(session.inputs().front().shape == std::vector<int64_t>{1, 16, 8, 8});
}

TEST_CASE("compile_model refuses a plan made on another CPU, naming both") {
  const graph::Graph g = conv_chain();
  const ScratchFolder folder("compile-foreign");
  const pipeline::CompileRequest request{.graph = g,
                                         .schedule = kernels::default_network_schedule(g),
                                         .plan_target = "llvm -mcpu=some-other-cpu -num-cores=1",
                                         .directory = folder.path(),
                                         .quiet = true};
  CHECK_THROWS_WITH_AS((void)pipeline::compile_model(request), doctest::Contains("'some-other-cpu'"), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(folder.path() / runtime::kProgramFile));
}

}  // namespace layoutopt::testing
