#include "layoutopt/pipeline/progress.h"

#include <iostream>

namespace layoutopt::pipeline {

timing::ProgressReporter progress_reporter(bool quiet) {
  return timing::ProgressReporter(std::cerr, {.mode = timing::default_progress_mode(quiet)});
}

}  // namespace layoutopt::pipeline
