#pragma once
// The measurement files several commands read and extend: the tuning record log and the
// transform table. One place says what is wrong with them (as warnings: unreadable lines and
// entries are skipped or kept, never fatal) and how a table grows without losing anything.

#include <filesystem>
#include <string>
#include <vector>

#include "layoutopt/costs/transform_table.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/record_log.h"

namespace layoutopt::pipeline {

/// The two files a measured plan rests on.
struct MeasurementFiles {
  std::filesystem::path records;     ///< tuning record log (JSON lines, only appended to)
  std::filesystem::path transforms;  ///< transform table (JSON, only extended)
};

/// Who fills them: the measurer of kernel configs and the timer of transforms. This process
/// by default; a measurement farm spreading both over MPI ranks (mpi/).
struct Measurers {
  tuning::Measurer& configs;
  costs::TransformTimer& transforms;
};

/// Reads a record log (a missing file is an empty log), warning about unreadable lines and
/// about records of other targets than `target`.
[[nodiscard]] tuning::LoadedLog load_records_warning(const std::filesystem::path& path, const std::string& target,
                                                     timing::ProgressReporter& progress);

/// Reads a transform table (a missing file is an empty table), warning about unreadable
/// entries, which are kept as they are.
[[nodiscard]] costs::TransformTable load_table_warning(const std::filesystem::path& path,
                                                       timing::ProgressReporter& progress);

/// Times with `timer` the `keys` the table lacks for (target, threads) and saves it to `path`
/// at most once a second while it measures, so an interrupted run keeps all but its last
/// second, and once more at the end.
costs::FillResult fill_and_save_table(costs::TransformTable& table, const std::filesystem::path& path,
                                      const std::vector<costs::TransformKey>& keys, costs::TransformTimer& timer,
                                      const std::string& target, int threads, timing::ProgressReporter& progress);

}  // namespace layoutopt::pipeline
