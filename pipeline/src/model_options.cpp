#include "layoutopt/pipeline/model_options.h"

#include "layoutopt/graph/error.h"

namespace layoutopt::pipeline {

namespace {

/// Refuses a batch the model cannot take; warns about one it already has.
void check_batch(const ModelOptions& options, const ModelFreedom& model, std::vector<std::string>& warnings) {
  if (!options.batch || !model.fixed_batch) return;
  const std::string given = options.names.batch + " " + std::to_string(*options.batch);
  const std::string fixed = model.description + " fixes its batch at " + std::to_string(*model.fixed_batch);
  if (*options.batch != *model.fixed_batch)
    throw graph::GraphError(given + " cannot apply: " + fixed + " (leave out " + options.names.batch + ")");
  warnings.push_back(given + " has no effect: " + fixed);
}

}  // namespace

std::vector<std::string> check_model_options(const ModelOptions& options, const ModelFreedom& model) {
  std::vector<std::string> warnings;
  check_batch(options, model, warnings);
  if (options.seed && !model.seed_used)
    warnings.push_back(options.names.seed + " " + std::to_string(*options.seed) + " has no effect on " +
                       model.description + ": " + model.seed_unused_reason);
  return warnings;
}

}  // namespace layoutopt::pipeline
