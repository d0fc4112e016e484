#include "layoutopt/distributed/work_bench.h"

#include <utility>

#include "layoutopt/costs/transform_timing.h"

namespace layoutopt::distributed {

WorkBench::WorkBench(const std::vector<tuning::TuningTask>& tasks, tuning::Measurer& configs,
                     const timing::TimingPolicy& transform_policy, std::string target)
    : tasks_(tasks),
      configs_(configs),
      pass_policy_(costs::transform_pass_policy(transform_policy)),
      target_(std::move(target)) {}

WorkResult WorkBench::perform(const Assignment& work) {
  if (const auto* config = std::get_if<ConfigWork>(&work))
    return configs_.measure(tasks_.at(static_cast<size_t>(config->task)), config->config);
  return costs::time_transform_pass(std::get<TransformPass>(work).key, pass_policy_, target_);
}

}  // namespace layoutopt::distributed
