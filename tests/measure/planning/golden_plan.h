#pragma once
// Golden plan files: a plan written by an earlier layoutopt, kept in tests/measure/planning/data,
// must read back and write out byte for byte, and planning the same network from the same
// costs must write the same bytes. LAYOUTOPT_WRITE_GOLDEN=1 rewrites the files instead, for a
// deliberate change of plans.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "layoutopt/planning/plan.h"

namespace layoutopt::testing {

inline std::filesystem::path golden_plan_path(const std::string& name) {
  return std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "tests" / "measure" / "planning" / "data" / name;
}

/// The plan file's text exactly as save_plan writes it.
inline std::string plan_text(const planning::Plan& plan) { return planning::to_json(plan).dump(1) + "\n"; }

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Checks `plan` against the golden file `name`, and that the file survives its round trip.
inline void check_golden_plan(const planning::Plan& plan, const std::string& name) {
  const std::filesystem::path path = golden_plan_path(name);
  CAPTURE(path);
  if (const char* write = std::getenv("LAYOUTOPT_WRITE_GOLDEN"); write != nullptr && std::string(write) == "1") {
    planning::save_plan(plan, path);
    return;
  }
  const std::string before = file_text(path);
  REQUIRE(!before.empty());
  CHECK(plan_text(planning::load_plan(path)) == before);  // read and written again: the same bytes
  CHECK(plan_text(plan) == before);                        // planned again: the same plan
}

}  // namespace layoutopt::testing
