#pragma once
// The MODEL argument's resolution lives in the pipeline library (layoutopt/pipeline/
// load_model.h), shared with the Python module; the subcommands name it as before.

#include "layoutopt/pipeline/load_model.h"

namespace layoutopt::apps {

using pipeline::LoadedModel;
using pipeline::load_model;
using pipeline::ModelOptions;

}  // namespace layoutopt::apps
