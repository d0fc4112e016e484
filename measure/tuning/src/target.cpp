#include "layoutopt/tuning/target.h"

#include <stdexcept>

#include "layoutopt/kernels/host.h"
#include "layoutopt/timing/cost_policy.h"

namespace layoutopt::tuning {

std::string host_target(int threads) {
  if (threads < 1) throw std::invalid_argument("host_target: thread count must be at least 1");
  return "llvm -mcpu=" + kernels::host_info().cpu_name + " -num-cores=" + std::to_string(threads) +
         " -cost=" + timing::kCostPolicyName;
}

}  // namespace layoutopt::tuning
