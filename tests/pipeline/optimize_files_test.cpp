// Where `optimize` keeps its files, for the CLI and the Python module alike: out/<model>/
// unless named, checked and their folders made before any work, an existing plan kept
// unless the caller forces.

#include "layoutopt/pipeline/optimize_files.h"

#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>

#include "support/scratch_folder.h"

using namespace layoutopt;
using layoutopt::testing::ScratchFolder;
namespace fs = std::filesystem;

TEST_CASE("unnamed files default to out/<model>/, named ones are kept as given") {
  const pipeline::OptimizeFiles defaults = pipeline::default_output_paths("resnet-18", {});
  CHECK(defaults.measurements.records == fs::path("out/resnet-18/tune.jsonl"));
  CHECK(defaults.measurements.transforms == fs::path("out/resnet-18/transforms.json"));
  CHECK(defaults.plan == fs::path("out/resnet-18/plan.json"));

  const pipeline::OptimizeFiles mixed =
      pipeline::default_output_paths("resnet-18", {.records = "mine/r.jsonl", .plan = "p.json"});
  CHECK(mixed.measurements.records == fs::path("mine/r.jsonl"));
  CHECK(mixed.measurements.transforms == fs::path("out/resnet-18/transforms.json"));
  CHECK(mixed.plan == fs::path("p.json"));
}

TEST_CASE("preparing the files makes their folders") {
  const ScratchFolder scratch("optimize_files_folders");
  const pipeline::OptimizeFiles files{.measurements = {scratch.path() / "a" / "r.jsonl", scratch.path() / "b" / "t.json"},
                                      .plan = scratch.path() / "c" / "d" / "plan.json"};
  pipeline::prepare_output_paths(files, false, "--force");
  CHECK(fs::is_directory(scratch.path() / "a"));
  CHECK(fs::is_directory(scratch.path() / "b"));
  CHECK(fs::is_directory(scratch.path() / "c" / "d"));
  CHECK_FALSE(fs::exists(files.plan));
}

TEST_CASE("an existing plan is refused without force, naming the override, before any folder is made") {
  const ScratchFolder scratch("optimize_files_existing");
  const fs::path plan = scratch.path() / "plan.json";
  std::ofstream(plan) << "mine\n";
  const pipeline::OptimizeFiles files{.measurements = {scratch.path() / "new" / "r.jsonl", scratch.path() / "t.json"},
                                      .plan = plan};
  CHECK_THROWS_WITH_AS(pipeline::prepare_output_paths(files, false, "force=True"),
                       doctest::Contains("plan.json' exists; pass force=True"), std::runtime_error);
  CHECK_FALSE(fs::exists(scratch.path() / "new"));
  pipeline::prepare_output_paths(files, true, "force=True");
  CHECK(fs::is_directory(scratch.path() / "new"));
}

TEST_CASE("a plan path that is a folder is refused even with force") {
  const ScratchFolder scratch("optimize_files_folder_plan");
  const pipeline::OptimizeFiles files{.measurements = {scratch.path() / "r.jsonl", scratch.path() / "t.json"},
                                      .plan = scratch.path()};
  CHECK_THROWS_WITH_AS(pipeline::prepare_output_paths(files, true, "--force"), doctest::Contains("is a folder"),
                       std::runtime_error);
}
