#pragma once
// The measurements a measured plan rests on: the record log and the transform table, read
// from their files, the layouts they offer and the layout-flexible ops timed in those (the
// flexible-op table). Measured cost sources are built over them, each priced by a repricing
// (repricing.h): confirmation appends to the records and returns stale tasks, calibration
// returns in-network transform times, and the plan step builds the next source with them;
// `optimize` then compares its baselines on the measurements and repricing the step left.

#include <string>
#include <vector>

#include "layoutopt/costs/flexible_op_timing.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/costs/repricing.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/tuning/measure_record.h"

namespace layoutopt::pipeline {

class Measurements {
 public:
  /// Reads `files` for `graph` (prepared for inference; it must outlive this object) as
  /// measured on `threads` threads of this host. Throws std::runtime_error when a file does
  /// not exist, saying which command makes it for `model` (MODEL as the user gave it; empty:
  /// the graph's name), and what reading it throws. Unreadable lines, foreign records and
  /// unreadable table entries are reported on `warnings`, or not at all when it is null
  /// (the caller read the files already and said so). Times the flexible ops on the calling
  /// thread's OpenMP team, reporting on `progress` (may be null).
  Measurements(const graph::Graph& graph, const MeasurementFiles& files, const std::string& model, int threads,
               timing::ProgressReporter* warnings, timing::ProgressReporter* progress);
  Measurements(const Measurements&) = delete;
  Measurements& operator=(const Measurements&) = delete;

  [[nodiscard]] const MeasurementFiles& files() const { return files_; }
  [[nodiscard]] int threads() const { return threads_; }
  /// The target string of this host and thread count (tuning::host_target).
  [[nodiscard]] const std::string& target() const { return target_; }
  /// Every record of the log (other targets' too), in file order, and those appended since.
  [[nodiscard]] std::vector<tuning::MeasureRecord>& records() { return records_; }
  [[nodiscard]] const std::vector<tuning::MeasureRecord>& records() const { return records_; }
  [[nodiscard]] const costs::TransformTable& table() const { return table_; }
  /// The layout-flexible ops' times in the offered layouts (costs::time_flexible_ops).
  [[nodiscard]] const costs::FlexibleOpTable& flexible() const { return flexible_; }
  /// A cost source over the records as they stand, priced by `repricing`. It points into this
  /// object, which must outlive it.
  [[nodiscard]] costs::MeasuredCostSource cost_source(const costs::Repricing& repricing = {}) const;

 private:
  const graph::Graph* graph_;
  std::string model_;
  MeasurementFiles files_;
  int threads_;
  std::string target_;
  std::vector<tuning::MeasureRecord> records_;
  costs::TransformTable table_;
  costs::ShapeLayouts offered_;
  costs::FlexibleOpTable flexible_;
};

}  // namespace layoutopt::pipeline
