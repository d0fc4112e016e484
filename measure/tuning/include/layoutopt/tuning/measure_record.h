#pragma once
// One tuning measurement and its JSON-lines form, AutoTVM's log format v0.2:
//
//   {"input": ["llvm -mcpu=znver5", "conv2d_NCHWc.x86", [args...], {}],
//    "config": {"index": 228, "code_hash": null,
//               "entity": [["tile_ic", "sp", [-1, 16]], ["tile_oc", "sp", [-1, 32]],
//                          ["tile_ow", "sp", [-1, 8]], ["unroll_kw", "ot", true], ["tile_oh", "ot", 1]]},
//    "result": [[0.000412], 0, 0.21, 1716810000.5], "version": 0.2, "tvm_version": "0.x"}
//
// result = [costs in seconds, error_no, all_cost (seconds spent on this trial, compile
// included), unix timestamp]; a failed trial has error_no != 0 and costs [1e9], as AutoTVM
// writes it. Split knobs ("sp") carry their innermost factor last; "ot" knobs a bool or int.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "layoutopt/tuning/task_key.h"

namespace layoutopt::tuning {

/// AutoTVM's MeasureErrorNo values (0 = success).
enum class MeasureErrorNo : int {
  no_error = 0,
  instantiation_error = 1,  ///< invalid schedule for the workload
  compile_host = 2,         ///< code generation failed
  runtime_device = 4,       ///< the kernel failed while running
  unknown_error = 8,
};

struct MeasureResult {
  std::vector<double> costs_s;  ///< the median run time, seconds (empty on error)
  int error_no = 0;
  double all_cost_s = 0;        ///< wall time of the whole trial (compile + timing)
  double timestamp = 0;         ///< seconds since the Unix epoch
  std::string error_message;    ///< not stored in the log (AutoTVM's format has no field)

  [[nodiscard]] bool ok() const { return error_no == 0 && !costs_s.empty(); }
  /// Mean of the costs (how AutoTVM reads them); +inf for a failed trial.
  [[nodiscard]] double seconds() const;
};

/// Knob name and value in the space's order (bools as 0/1).
using KnobValues = std::vector<std::pair<std::string, int64_t>>;

struct MeasureRecord {
  std::string target;  ///< e.g. "llvm -mcpu=znver5"
  /// The task measured, equal to TuningTask::task_key() of it; nullopt for a task of another
  /// template or argument form, which matches no task of ours.
  std::optional<TaskKey> task;
  int64_t config_index = 0;  ///< index in the writer's config space
  KnobValues knobs;
  MeasureResult result;
  /// A task without a key, as read ([name, args]): written back unchanged.
  nlohmann::json foreign_task;

  /// The task measured (the fuzz target's name for `task`).
  [[nodiscard]] const std::optional<TaskKey>& task_key() const { return task; }
  [[nodiscard]] std::map<std::string, int64_t> knob_map() const { return {knobs.begin(), knobs.end()}; }
};

/// Raised by parse_record for a line that is not a usable record; the message says why.
class RecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One JSON line, without the trailing newline.
[[nodiscard]] std::string to_json_line(const MeasureRecord& record);
/// Inverse of to_json_line; also reads AutoTVM's own x86 records. Throws RecordError, also for
/// a knob its task's family does not declare (kernels/knob_table.h).
[[nodiscard]] MeasureRecord parse_record(std::string_view line);

}  // namespace layoutopt::tuning
