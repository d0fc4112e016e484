#include "layoutopt/tuning/tuning_experience.h"

#include <algorithm>
#include <cmath>
#include <random>
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
  members_stale_ = true;
}

void TuningExperience::check_not_empty() const {
  if (labels_.empty()) throw std::invalid_argument("TuningExperience: nothing measured yet to predict from");
}

std::vector<float> TuningExperience::predict(std::span<const float> rows) {
  check_not_empty();
  if (stale_) {
    model_.fit(features_, kConfigFeatureCount, labels_);
    stale_ = false;
  }
  return model_.predict(rows, kConfigFeatureCount);
}

void TuningExperience::refit_members() {
  const size_t count = labels_.size();
  const size_t drawn = std::min(count, kMaxBootstrapRows);
  members_.clear();
  for (int member = 0; member < kBootstrapMembers; ++member) {
    // Seeded by the member and the row count: the same rows give the same ensemble.
    std::mt19937_64 rng(params_.seed + 1000003ULL * static_cast<uint64_t>(member + 1) + count);
    std::uniform_int_distribution<size_t> any(0, count - 1);
    std::vector<float> features;
    std::vector<float> labels;
    features.reserve(drawn * kConfigFeatureCount);
    labels.reserve(drawn);
    for (size_t i = 0; i < drawn; ++i) {
      const size_t row = any(rng);
      const auto first = features_.begin() + static_cast<std::ptrdiff_t>(row * kConfigFeatureCount);
      features.insert(features.end(), first, first + static_cast<std::ptrdiff_t>(kConfigFeatureCount));
      labels.push_back(labels_[row]);
    }
    // A member only has to part from the others where rows are sparse, not to rank finely:
    // a quarter of the rounds at twice the learning rate keeps four members' fits no
    // costlier than the main model's.
    XGBoostParams params = params_;
    params.rounds = std::max(8, params_.rounds / 4);
    params.eta = std::min(1.0, 2 * params_.eta);
    params.seed = params_.seed + static_cast<uint64_t>(member) + 1;
    members_.emplace_back(params).fit(features, kConfigFeatureCount, labels);
  }
  members_stale_ = false;
}

std::vector<float> TuningExperience::disagreement(std::span<const float> rows) {
  check_not_empty();
  if (members_stale_) refit_members();
  std::vector<double> sum(rows.size() / kConfigFeatureCount, 0.0);
  std::vector<double> sum_squares(sum.size(), 0.0);
  for (const XGBoostModel& member : members_) {
    const std::vector<float> predicted = member.predict(rows, kConfigFeatureCount);
    for (size_t i = 0; i < sum.size(); ++i) {
      sum[i] += predicted[i];
      sum_squares[i] += static_cast<double>(predicted[i]) * predicted[i];
    }
  }
  std::vector<float> spread(sum.size());
  const double members = kBootstrapMembers;
  for (size_t i = 0; i < sum.size(); ++i) {
    const double mean = sum[i] / members;
    spread[i] = static_cast<float>(std::sqrt(std::max(0.0, sum_squares[i] / members - mean * mean)));
  }
  return spread;
}

}  // namespace layoutopt::tuning
