#include "layoutopt/pipeline/openmp_wait.h"

#include <strings.h>

#include <cstdlib>
#include <iostream>

namespace layoutopt::pipeline {

void warn_if_passive_openmp_wait() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (policy == nullptr || strcasecmp(policy, "passive") != 0) return;
  std::cerr << "warning: OMP_WAIT_POLICY=" << policy
            << ": threads sleep between kernels and every step of a network pays a wake-up, so the "
               "network latencies measured here are pessimistic (unset it for end-to-end timings)\n";
}

}  // namespace layoutopt::pipeline
