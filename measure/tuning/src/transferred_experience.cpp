#include "layoutopt/tuning/transferred_experience.h"

#include <cmath>
#include <map>

#include "layoutopt/kernels/error.h"
#include "layoutopt/tuning/config_features.h"

namespace layoutopt::tuning {

namespace {

// The conv workload of a key (task_key's conv_key read backwards); throws KernelError
// when the fields describe none.
kernels::Conv2dDesc conv_desc_of(const TaskKey& key) {
  if (key.data.size() != 4 || key.weight.size() != 4) throw kernels::KernelError("not a 2-D conv workload");
  kernels::Conv2dDesc d;
  d.batch = key.data[0];
  d.in_channels = key.data[1];
  d.in_h = key.data[2];
  d.in_w = key.data[3];
  d.out_channels = key.weight[0];
  d.kernel_h = key.weight[2];
  d.kernel_w = key.weight[3];
  d.stride_h = key.strides[0];
  d.stride_w = key.strides[1];
  d.pad_top = key.padding[0];
  d.pad_left = key.padding[1];
  d.pad_bottom = key.padding[2];
  d.pad_right = key.padding[3];
  d.dilation_h = key.dilation[0];
  d.dilation_w = key.dilation[1];
  d.groups = key.family == TaskFamily::depthwise_conv2d ? d.in_channels
             : key.family == TaskFamily::group_conv2d   ? key.groups
                                                        : 1;
  return d;
}

kernels::TunableOp op_of(const TaskKey& key) {
  if (key.family == TaskFamily::dense) {
    if (key.data.size() != 2 || key.weight.size() != 2) throw kernels::KernelError("not a dense workload");
    kernels::DenseDesc d;
    d.batch = key.data[0];
    d.in_features = key.data[1];
    d.out_features = key.weight[0];
    return kernels::TunableOp::dense(d);
  }
  const kernels::Conv2dDesc desc = conv_desc_of(key);
  return key.family == TaskFamily::winograd_conv2d ? kernels::TunableOp::winograd_conv2d(desc)
                                                   : kernels::TunableOp::conv2d(desc);
}

}  // namespace

std::optional<TuningTask> task_of_key(const TaskKey& key) {
  try {
    TuningTask task = make_task(op_of(key));
    // The rebuilt task must be the one the key names (a grouped key whose groups make it
    // depthwise, say, names a template our extraction never writes).
    if (task.task_key() != key) return std::nullopt;
    return task;
  } catch (const kernels::KernelError&) {
    return std::nullopt;
  }
}

float experience_label(const TuningTask& task, double seconds) {
  return static_cast<float>(std::log(task.op.flops() / seconds * 1e-9));
}

int64_t add_foreign_experience(TuningExperience& experience, const std::vector<TuningTask>& own,
                               const std::vector<MeasureRecord>& history, const std::string& target) {
  std::map<TaskKey, std::optional<TuningTask>> rebuilt;
  for (const TuningTask& task : own) rebuilt.emplace(task.task_key(), std::nullopt);  // theirs come via tuners
  int64_t added = 0;
  for (const MeasureRecord& record : history) {
    if (record.target != target || !record.task || !record.result.ok()) continue;
    auto [entry, fresh] = rebuilt.try_emplace(*record.task);
    if (fresh) entry->second = task_of_key(*record.task);
    if (!entry->second) continue;
    const TuningTask& task = *entry->second;
    const std::optional<int64_t> index = task.config_index(record.knob_map());
    if (!index || !task.op.space().searched(*index)) continue;
    experience.add(config_features(task, *index), experience_label(task, record.result.seconds()));
    ++added;
  }
  return added;
}

}  // namespace layoutopt::tuning
