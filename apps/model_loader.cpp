#include "model_loader.h"

#include <iostream>

namespace layoutopt::apps {

LoadedModel load_and_warn(const std::string& spec, const ModelOptions& options) {
  LoadedModel model = pipeline::load_model(spec, options);
  for (const std::string& warning : model.warnings) std::cerr << "warning: " << warning << "\n";
  return model;
}

}  // namespace layoutopt::apps
