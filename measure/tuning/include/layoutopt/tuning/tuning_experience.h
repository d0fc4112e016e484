#pragma once
// TuningExperience: measured configs as training rows (features, log GFLOPS) of an XGBoost
// cost model that is refitted only when rows arrived since its last fit. Each TaskTuner
// keeps one for its own task; a tuning session keeps one for all its tasks, the shared
// cost model of AutoTVM's transfer learning across tasks.
//
// config_features describe a config relative to its task (accumulators in use, vector
// fill, footprints against the workload, the kernel family) and the label is log GFLOPS,
// so what makes one conv fast mostly makes the next one fast too. A task with too few
// measurements of its own for its own model is ranked by this one instead of being sampled
// at random: under a short budget, where a task gets a dozen trials in all, those trials
// then go to configs that already worked elsewhere.
//
// How sure the model is comes from bagging: kBootstrapMembers further models, each trained
// on a bootstrap resample of the rows, disagree where few measurements constrain the
// prediction (far from anything measured) and agree where many do. The search spends its
// exploration there instead of at random (task_tuner.h).
//
//   TuningExperience experience(params);
//   experience.add(config_features(task_a, i), log_gflops);   // as measurements arrive
//   std::vector<float> scores = experience.predict(config_feature_rows(task_b, pool));
//   std::vector<float> unsure = experience.disagreement(config_feature_rows(task_b, pool));

#include <cstddef>
#include <span>
#include <vector>

#include "layoutopt/tuning/xgboost_model.h"

namespace layoutopt::tuning {

class TuningExperience {
 public:
  explicit TuningExperience(XGBoostParams params = {}) : params_(params), model_(params) {}

  /// One measured config: its kConfigFeatureCount features and its log GFLOPS.
  void add(std::span<const float> features, float label);
  [[nodiscard]] size_t rows() const { return labels_.size(); }

  /// Predicted log GFLOPS per row (row-major, kConfigFeatureCount each) by a model trained
  /// on every row added so far (refitted only when rows arrived since the last fit).
  /// Throws std::invalid_argument when nothing has been added.
  [[nodiscard]] std::vector<float> predict(std::span<const float> rows);

  /// The bootstrap members' disagreement per row: the standard deviation of their
  /// predictions, in the label's units (log GFLOPS). Members are refitted only when rows
  /// arrived since their last fit. Throws std::invalid_argument when nothing has been added.
  [[nodiscard]] std::vector<float> disagreement(std::span<const float> rows);

  /// Members of the bootstrap ensemble behind disagreement().
  static constexpr int kBootstrapMembers = 4;
  /// Rows a member trains on at most (drawn with replacement from all rows): bounds the
  /// members' fitting time when transferred records make the experience large.
  static constexpr size_t kMaxBootstrapRows = 512;

 private:
  void check_not_empty() const;
  void refit_members();

  XGBoostParams params_;
  XGBoostModel model_;
  std::vector<XGBoostModel> members_;
  std::vector<float> features_;
  std::vector<float> labels_;
  bool stale_ = true;
  bool members_stale_ = true;
};

}  // namespace layoutopt::tuning
