#include "layoutopt/tuning/tuning_experience.h"

#include <stdexcept>
#include <string>

#include "layoutopt/tuning/config_features.h"

namespace layoutopt::tuning {

void TuningExperience::add(std::span<const float> features, float label) {
  if (features.size() != kConfigFeatureCount)
    throw std::invalid_argument("TuningExperience: a row has " + std::to_string(features.size()) + " features, not " +
                                std::to_string(kConfigFeatureCount));
  features_.insert(features_.end(), features.begin(), features.end());
  labels_.push_back(label);
  stale_ = true;
}

std::vector<float> TuningExperience::predict(std::span<const float> rows) {
  if (labels_.empty()) throw std::invalid_argument("TuningExperience: nothing measured yet to predict from");
  if (stale_) {
    model_.fit(features_, kConfigFeatureCount, labels_);
    stale_ = false;
  }
  return model_.predict(rows, kConfigFeatureCount);
}

}  // namespace layoutopt::tuning
