#pragma once
// Where every command and pipeline step reports progress: stderr, live on a terminal,
// periodic lines otherwise, nothing but warnings when quiet. Each step takes a reporter of
// its own, so its progress bar and ETA start with the step.

#include "layoutopt/timing/progress.h"

namespace layoutopt::pipeline {

/// A reporter on std::cerr in timing::default_progress_mode(quiet).
[[nodiscard]] timing::ProgressReporter progress_reporter(bool quiet);

}  // namespace layoutopt::pipeline
