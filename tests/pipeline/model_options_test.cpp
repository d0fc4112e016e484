#include "layoutopt/pipeline/model_options.h"

#include <doctest/doctest.h>

#include "layoutopt/graph/error.h"

namespace layoutopt::pipeline {

namespace {

const ModelFreedom kFixedFile{.description = "'m.onnx'",
                              .fixed_batch = 1,
                              .seed_used = false,
                              .seed_unused_reason = "its weights are all in the file"};

}  // namespace

TEST_CASE("options not given are never refused or warned about") {
  CHECK(check_model_options({}, kFixedFile).empty());
  CHECK(check_model_options({.batch = 8, .seed = 3}, {.description = "resnet-18"}).empty());
}

TEST_CASE("a batch other than the fixed one is refused, naming the option and the file's batch") {
  CHECK_THROWS_WITH_AS((void)check_model_options({.batch = 4}, kFixedFile),
                       "--batch 4 cannot apply: 'm.onnx' fixes its batch at 1 (leave out --batch)", graph::GraphError);
  CHECK_THROWS_WITH_AS((void)check_model_options({.batch = 2, .names = {.batch = "batch="}}, kFixedFile),
                       doctest::Contains("batch= 2 cannot apply"), graph::GraphError);
}

TEST_CASE("options without effect warn, one warning each") {
  const std::vector<std::string> warnings = check_model_options({.batch = 1, .seed = 5}, kFixedFile);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "--batch 1 has no effect: 'm.onnx' fixes its batch at 1");
  CHECK(warnings[1] == "--seed 5 has no effect on 'm.onnx': its weights are all in the file");
}

}  // namespace layoutopt::pipeline
