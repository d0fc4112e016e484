#pragma once
// The MODEL argument's resolution lives in the pipeline library (layoutopt/pipeline/
// load_model.h), shared with the Python module; the subcommands call it through
// load_and_warn, which also shows its warnings (options without effect on the model) on stderr.

#include <string>

#include "layoutopt/pipeline/load_model.h"

namespace layoutopt::apps {

using pipeline::LoadedModel;
using pipeline::ModelOptions;

/// pipeline::load_model, with each warning printed to stderr as "warning: ...".
[[nodiscard]] LoadedModel load_and_warn(const std::string& spec, const ModelOptions& options = {});

}  // namespace layoutopt::apps
