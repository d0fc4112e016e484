#pragma once
// Where `optimize` keeps its files, for every front end (the CLI's --records, --transforms
// and -o; Python's records=, transforms= and output=): the path the caller named, or one in
// out/<model>/, so that a second run resumes from the records and table the first one left.
// They are checked and their folders made before any work: tuning takes minutes, and must
// not end in a refusal to save the plan.

#include <filesystem>
#include <string>

#include "layoutopt/pipeline/measurement_files.h"

namespace layoutopt::pipeline {

/// The files of one `optimize` run.
struct OptimizeFiles {
  MeasurementFiles measurements;  ///< resumed and appended to (records), extended (table)
  std::filesystem::path plan;     ///< written at the end
};

/// The paths the caller named; an empty path takes the default.
struct NamedOptimizeFiles {
  std::filesystem::path records;
  std::filesystem::path transforms;
  std::filesystem::path plan;
};

/// Each named path, or out/<model>/tune.jsonl, out/<model>/transforms.json and
/// out/<model>/plan.json (`model`: the graph's name).
[[nodiscard]] OptimizeFiles default_output_paths(const std::string& model, const NamedOptimizeFiles& named);

/// Refuses a plan path that is a folder, or an existing plan without `force` (check_replaceable;
/// `force_hint` names the override), then creates the folders of the three files.
void prepare_output_paths(const OptimizeFiles& files, bool force, const std::string& force_hint);

}  // namespace layoutopt::pipeline
