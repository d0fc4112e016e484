#pragma once
// WorkBench: what a worker does with an assignment (transport.h): a config measured by its
// Measurer, or one pass of a layout transform timed on this process with a pass's share of
// the transform policy. Rank 0's worker thread and every other rank perform work through one,
// so a unit of work is measured the same way wherever it runs.

#include <string>
#include <vector>

#include "layoutopt/distributed/transport.h"
#include "layoutopt/timing/timing.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::distributed {

class WorkBench {
 public:
  /// `tasks` and `configs` must outlive the bench. `transform_policy` is the policy of a whole
  /// transform entry (costs/transform_timing.h); each pass takes its share.
  WorkBench(const std::vector<tuning::TuningTask>& tasks, tuning::Measurer& configs,
            const timing::TimingPolicy& transform_policy, std::string target);

  /// Throws what measuring throws, and std::out_of_range for a task number not in the list.
  [[nodiscard]] WorkResult perform(const Assignment& work);

 private:
  const std::vector<tuning::TuningTask>& tasks_;
  tuning::Measurer& configs_;
  timing::TimingPolicy pass_policy_;
  std::string target_;
};

}  // namespace layoutopt::distributed
