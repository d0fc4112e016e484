#pragma once
// The MODEL argument's resolution lives in the pipeline library (layoutopt/pipeline/
// load_model.h), shared with the Python module; the subcommands call it through
// load_and_warn, which also shows its warnings (options without effect on the model) on stderr.

#include <string>

#include "layoutopt/pipeline/load_model.h"

namespace layoutopt::apps {

using pipeline::LoadedModel;
using pipeline::ModelOptions;

/// The positional MODEL and its --batch / --seed flags (add_model_argument, cli_common.h).
struct ModelArgument {
  std::string spec;
  ModelOptions options;
};

/// pipeline::load_model, with each warning printed to stderr as "warning: ...".
[[nodiscard]] LoadedModel load_and_warn(const std::string& spec, const ModelOptions& options = {});
[[nodiscard]] LoadedModel load_and_warn(const ModelArgument& model);

/// pipeline::load_prepared_model (the graph prepared for inference), warning as load_and_warn.
[[nodiscard]] LoadedModel load_prepared_and_warn(const ModelArgument& model);

}  // namespace layoutopt::apps
