// The C API given null or out-of-range arguments, or a folder that is not an artifact: every
// call returns its failure value and lo_last_error says why, never a crash. (Bad artifacts,
// wrong shapes and other CPUs are in tests/deploy, which has networks to compile.)

#include <doctest/doctest.h>

#include <string>

#include "layoutopt/runtime/layoutopt.h"

namespace layoutopt::testing {

namespace {

bool last_error_says(const char* text) { return std::string(lo_last_error()).find(text) != std::string::npos; }

}  // namespace

TEST_CASE("lo_load refuses a null or missing folder, saying why") {
  CHECK(lo_load(nullptr, nullptr) == nullptr);
  CHECK(last_error_says("directory is null"));
  const lo_options options{2};
  CHECK(lo_load("/nonexistent/artifact", &options) == nullptr);
  CHECK(last_error_says("cannot open"));
  CHECK(lo_load("", nullptr) == nullptr);
  CHECK(!std::string(lo_last_error()).empty());
}

TEST_CASE("calls on a null session fail with their failure value") {
  CHECK(lo_input_count(nullptr) == 0);
  CHECK(lo_output_count(nullptr) == 0);
  int64_t dims[4];
  CHECK(lo_input_shape(nullptr, 0, dims, 4) == -1);
  CHECK(last_error_says("session is null"));
  CHECK(lo_output_shape(nullptr, 0, dims, 4) == -1);
  CHECK(last_error_says("session is null"));
  CHECK(lo_run(nullptr, nullptr, 0, nullptr, 0) == -1);
  CHECK(last_error_says("session is null"));
  lo_free(nullptr);
}

}  // namespace layoutopt::testing
