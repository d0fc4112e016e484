#include "layoutopt/tuning/task_key.h"

namespace layoutopt::tuning {

namespace {

constexpr std::array kFamilies{TaskFamily::conv2d, TaskFamily::group_conv2d, TaskFamily::depthwise_conv2d,
                               TaskFamily::winograd_conv2d, TaskFamily::dense,           TaskFamily::gemm_conv2d};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(shape[i]);
  return text + "]";
}

bool is_conv(TaskFamily family) { return family != TaskFamily::dense; }

}  // namespace

std::string_view task_name(TaskFamily family) {
  switch (family) {
    case TaskFamily::conv2d: return "conv2d_NCHWc.x86";
    case TaskFamily::group_conv2d: return "group_conv2d_nchw.x86";
    case TaskFamily::depthwise_conv2d: return "depthwise_conv2d_NCHWc.x86";
    case TaskFamily::winograd_conv2d: return "conv2d_NCHWc_winograd.x86";
    case TaskFamily::dense: return "dense_nopack.x86";
    // Not an AutoTVM template: layoutopt's own 1x1 kernel on NCHW (kernels/gemm_conv2d.h).
    case TaskFamily::gemm_conv2d: return "conv2d_1x1_nchw_gemm.x86";
  }
  return "unknown";
}

std::optional<TaskFamily> task_family(std::string_view name) {
  for (TaskFamily family : kFamilies)
    if (task_name(family) == name) return family;
  return std::nullopt;
}

std::string_view TaskKey::name() const { return task_name(family); }

std::string TaskKey::describe() const {
  std::string text = shape_text(data) + " w" + shape_text(weight);
  if (is_conv(family) && strides != std::array<int64_t, 2>{1, 1}) text += " s" + std::to_string(strides[0]);
  return text;
}

std::string TaskKey::text() const {
  std::string text = std::string(name()) + " " + shape_text(data) + " w" + shape_text(weight);
  if (is_conv(family)) {
    text += " s" + shape_text({strides.begin(), strides.end()}) + " p" + shape_text({padding.begin(), padding.end()}) +
            " d" + shape_text({dilation.begin(), dilation.end()});
    text += family == TaskFamily::group_conv2d ? " g" + std::to_string(groups) : " " + layout + " " + out_layout;
  }
  return text + " " + dtype;
}

std::span<const kernels::KnobDecl> knob_table(TaskFamily family) {
  namespace knobs = kernels::knobs;
  switch (family) {
    case TaskFamily::conv2d:
    case TaskFamily::group_conv2d: return knobs::conv2d::table;
    case TaskFamily::depthwise_conv2d: return knobs::depthwise_conv2d::table;
    case TaskFamily::winograd_conv2d: return knobs::winograd_conv2d::table;
    case TaskFamily::dense: return knobs::dense::table;
    case TaskFamily::gemm_conv2d: return knobs::gemm_conv2d::table;
  }
  return {};
}

const kernels::KnobDecl* declared_knob(std::optional<TaskFamily> family, std::string_view name) {
  if (family) return kernels::find_knob(knob_table(*family), name);
  for (TaskFamily each : kFamilies)
    if (const kernels::KnobDecl* knob = kernels::find_knob(knob_table(each), name)) return knob;
  return nullptr;
}

}  // namespace layoutopt::tuning
