#include "workload_key.h"

#include "layoutopt/kernels/error.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

namespace {

TaskKey conv_key(TaskFamily family, const kernels::Conv2dDesc& d) {
  TaskKey key{.family = family,
              .data = {d.batch, d.in_channels, d.in_h, d.in_w},
              .weight = {d.out_channels, d.in_channels_per_group(), d.kernel_h, d.kernel_w},
              .strides = {d.stride_h, d.stride_w},
              .padding = {d.pad_top, d.pad_left, d.pad_bottom, d.pad_right},
              .dilation = {d.dilation_h, d.dilation_w}};
  if (family == TaskFamily::group_conv2d) {
    key.groups = d.groups;
  } else {
    key.layout = "NCHW";
    key.out_layout = "NCHW";
  }
  return key;
}

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

TaskKey dense_key(const kernels::DenseDesc& d) {
  return {.family = TaskFamily::dense, .data = {d.batch, d.in_features}, .weight = {d.out_features, d.in_features}};
}

kernels::DenseDesc dense_desc_of(const TaskKey& key) {
  if (key.data.size() != 2 || key.weight.size() != 2) throw kernels::KernelError("not a dense workload");
  kernels::DenseDesc d;
  d.batch = key.data[0];
  d.in_features = key.data[1];
  d.out_features = key.weight[0];
  return d;
}

}  // namespace

TaskKey workload_key(const kernels::TunableOp& op) {
  const TaskFamily family = task_family(op.family());
  return family == TaskFamily::dense ? dense_key(op.dense_desc()) : conv_key(family, op.conv_desc());
}

kernels::TunableOp workload_of(const TaskKey& key) {
  if (key.family == TaskFamily::dense) return kernels::TunableOp::dense(dense_desc_of(key));
  const kernels::Conv2dDesc desc = conv_desc_of(key);
  if (key.family == TaskFamily::winograd_conv2d) return kernels::TunableOp::winograd_conv2d(desc);
  if (key.family == TaskFamily::gemm_conv2d) return kernels::TunableOp::gemm_conv2d(desc);
  return kernels::TunableOp::conv2d(desc);
}

}  // namespace layoutopt::tuning
