#include "layoutopt/pipeline/measurements.h"

#include <filesystem>
#include <stdexcept>

#include "layoutopt/costs/offered_layouts.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"

namespace layoutopt::pipeline {

namespace {

void require_file(const std::filesystem::path& path, const std::string& what, const std::string& hint) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(what + " file '" + path.string() + "' does not exist: " + hint);
}

std::vector<tuning::MeasureRecord> read_records(const MeasurementFiles& files, const std::string& model,
                                                const std::string& target, timing::ProgressReporter* warnings) {
  require_file(files.records, "records",
               "run `layoutopt tune " + model + " --records " + files.records.string() + "` first");
  if (warnings == nullptr) return tuning::load_record_log(files.records).records;
  return load_records_warning(files.records, target, *warnings).records;
}

costs::TransformTable read_table(const MeasurementFiles& files, const std::string& model,
                                 timing::ProgressReporter* warnings) {
  require_file(files.transforms, "transforms",
               "run `layoutopt bench-transforms " + model + " --records " + files.records.string() + " -o " +
                   files.transforms.string() + "` first");
  if (warnings == nullptr) return costs::TransformTable::load(files.transforms);
  return load_table_warning(files.transforms, *warnings);
}

}  // namespace

Measurements::Measurements(const graph::Graph& graph, const MeasurementFiles& files, const std::string& model,
                           int threads, timing::ProgressReporter* warnings, timing::ProgressReporter* progress)
    : graph_(&graph),
      model_(model),
      files_(files),
      threads_(threads),
      target_(tuning::host_target(threads)),
      records_(read_records(files, model.empty() ? graph.name() : model, target_, warnings)),
      table_(read_table(files, model.empty() ? graph.name() : model, warnings)),
      offered_(costs::offered_layouts(graph, records_, table_, target_, threads)),
      // The policy kernels and transforms are timed with, so node and edge costs add up.
      flexible_(costs::time_flexible_ops(graph, offered_, timing::cost_policy(threads), progress)) {}

costs::MeasuredCostSource Measurements::cost_source(const costs::Repricing& repricing) const {
  return {*graph_, records_, {.transforms = table_, .offered = offered_, .flexible = flexible_},
          costs::MeasuredCostOptions{target_, threads_, files_.records, files_.transforms, model_}, repricing};
}

}  // namespace layoutopt::pipeline
