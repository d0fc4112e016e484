// `layoutopt tune`'s library call (shared with the Python module): its refusals come before
// any measurement or file is made.

#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>

#include "layoutopt/pipeline/tune_model.h"
#include "pipeline_fixtures.h"

namespace layoutopt::testing {

TEST_CASE("tune_model refuses a missing budget and a task the model lacks, writing nothing") {
  const graph::Graph g = conv_chain();
  const ScratchFolder folder("tune-model");
  const std::filesystem::path records = folder.path() / "tune.jsonl";
  CHECK_THROWS_WITH_AS((void)pipeline::tune_model(g, {.records = records, .quiet = true}),
                       doctest::Contains("give a budget"), std::runtime_error);
  CHECK_THROWS_WITH_AS((void)pipeline::tune_model(g, {.records = records, .trials = 1, .quiet = true, .task = 99}),
                       doctest::Contains("task 99 does not exist"), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(records));
}

}  // namespace layoutopt::testing
