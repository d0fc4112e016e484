#pragma once
// A task key and the operator it names, both ways: TuningTask::task_key() writes the key of
// its operator, and transfer learning (transferred_experience.cpp) rebuilds the operator of a
// record's key. The two directions live together so a new key field is read where it is written.

#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/tuning/task_key.h"

namespace layoutopt::tuning {

/// The key of `op`'s workload (its epilogue and input scale are not part of it).
[[nodiscard]] TaskKey workload_key(const kernels::TunableOp& op);

/// The operator a key names; throws kernels::KernelError when its fields describe no conv or
/// dense workload. workload_key(workload_of(key)) == key for every key workload_key writes.
[[nodiscard]] kernels::TunableOp workload_of(const TaskKey& key);

}  // namespace layoutopt::tuning
