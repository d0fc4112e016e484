#include "layoutopt/pipeline/optimize_files.h"

#include "layoutopt/pipeline/output_path.h"

namespace layoutopt::pipeline {

namespace {

std::filesystem::path named_or_default(const std::filesystem::path& named, const std::string& model,
                                       const std::string& file) {
  return named.empty() ? std::filesystem::path("out") / model / file : named;
}

void make_parent(const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
}

}  // namespace

OptimizeFiles default_output_paths(const std::string& model, const NamedOptimizeFiles& named) {
  return {.measurements = {named_or_default(named.records, model, "tune.jsonl"),
                           named_or_default(named.transforms, model, "transforms.json")},
          .plan = named_or_default(named.plan, model, "plan.json")};
}

void prepare_output_paths(const OptimizeFiles& files, bool force, const std::string& force_hint) {
  check_replaceable(files.plan, force, force_hint);
  for (const std::filesystem::path& path : {files.measurements.records, files.measurements.transforms, files.plan})
    make_parent(path);
}

}  // namespace layoutopt::pipeline
