#pragma once
// TaskKey: the identity of a tuning task as a typed, ordered value (operator family and the
// workload's fields as AutoTVM's task arguments hold them). Tasks, records and the tables
// built from them match by it; AutoTVM's JSON form exists only in the record reader and
// writer (task_args.h).

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/kernels/knob_table.h"

namespace layoutopt::tuning {

/// The x86 templates whose records layoutopt reads as its own tasks.
enum class TaskFamily { conv2d, group_conv2d, depthwise_conv2d, winograd_conv2d, dense, gemm_conv2d };

struct TaskKey {
  TaskFamily family = TaskFamily::conv2d;
  std::vector<int64_t> data;    ///< input tensor shape (NCHW; dense: batch, features)
  std::vector<int64_t> weight;  ///< weight shape (OIHW; dense: out, in)
  std::array<int64_t, 2> strides{};   ///< convs only
  std::array<int64_t, 4> padding{};   ///< convs only: top, left, bottom, right
  std::array<int64_t, 2> dilation{};  ///< convs only
  int64_t groups = 0;                 ///< group_conv2d only (its arguments name it)
  std::string layout;                 ///< conv2d, depthwise, Winograd, GEMM: data layout ("NCHW")
  std::string out_layout;             ///< conv2d, depthwise, Winograd, GEMM: output layout ("NCHW")
  std::string dtype = "float32";      ///< tensors' and output's type

  friend auto operator<=>(const TaskKey&, const TaskKey&) = default;
  friend bool operator==(const TaskKey&, const TaskKey&) = default;

  /// AutoTVM's task name, e.g. "conv2d_NCHWc.x86".
  [[nodiscard]] std::string_view name() const;
  /// "[1,64,56,56] w[128,64,3,3] s2": data and weight shapes, and the stride unless 1.
  [[nodiscard]] std::string describe() const;
  /// Every field as text, one key per task: "conv2d_NCHWc.x86 [1,64,56,56] w[64,64,3,3]
  /// s[1,1] p[1,1,1,1] d[1,1] NCHW NCHW float32" (groups after d for group_conv2d).
  [[nodiscard]] std::string text() const;
};

/// AutoTVM's task name of a family.
[[nodiscard]] std::string_view task_name(TaskFamily family);
/// The family of an AutoTVM task name; nullopt for a template layoutopt does not tune.
[[nodiscard]] std::optional<TaskFamily> task_family(std::string_view name);

/// The knob table of a family's schedule space (kernels/knob_table.h).
[[nodiscard]] std::span<const kernels::KnobDecl> knob_table(TaskFamily family);
/// The declaration of `name` in `family`'s table; without a family, in the first table
/// declaring it (spellings agree across tables). nullptr when none declares it.
[[nodiscard]] const kernels::KnobDecl* declared_knob(std::optional<TaskFamily> family, std::string_view name);

}  // namespace layoutopt::tuning
