#include "model_loader.h"

#include <iostream>

namespace layoutopt::apps {

namespace {

LoadedModel warned(LoadedModel model) {
  for (const std::string& warning : model.warnings) std::cerr << "warning: " << warning << "\n";
  return model;
}

}  // namespace

LoadedModel load_and_warn(const std::string& spec, const ModelOptions& options) {
  return warned(pipeline::load_model(spec, options));
}

LoadedModel load_and_warn(const ModelArgument& model) { return load_and_warn(model.spec, model.options); }

LoadedModel load_prepared_and_warn(const ModelArgument& model) {
  return warned(pipeline::load_prepared_model(model.spec, model.options));
}

}  // namespace layoutopt::apps
