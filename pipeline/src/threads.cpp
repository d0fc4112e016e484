#include "layoutopt/pipeline/threads.h"

#include "layoutopt/timing/cpu_info.h"

namespace layoutopt::pipeline {

int resolve_threads(int requested) { return requested > 0 ? requested : timing::detect_cpu().default_threads; }

}  // namespace layoutopt::pipeline
