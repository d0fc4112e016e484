#pragma once
// TaskTuner: the cost-model-guided search of one task's config space (AutoTVM's XGBTuner,
// simplified for spaces of a few thousand points).
//
//   - Once a task has `random_warmup` working configs, each proposal trains XGBoost on them
//     (features: config_features, label: log GFLOPS) and scores the whole unmeasured space
//     (a random sample of `max_scored` for larger spaces), proposing the best predicted.
//     An `explore_share` of each batch (at least one config of a batch of two or more) goes
//     where the model is least sure instead: the highest upper bound, prediction plus
//     `optimism` times the disagreement of its bootstrap members (tuning_experience.h), so
//     the search looks where a good config could hide rather than at random. Before that,
//     the session's shared TuningExperience (other tasks' measurements) ranks the space the
//     same way once it holds `random_warmup` rows; with neither, the proposals are random.
//   - Configs never repeat: observe() marks them measured, including configs read from a
//     resumed log, which also train the model; a proposed config not yet observed (being
//     measured while the next batch is proposed) is not proposed again.
//   - Configs whose register tile is far larger than the registers (tile_far_beyond_registers)
//     are screened out as they are drawn or scored: never proposed, never compiled (unless
//     `screen_far_tiles` is off).
//   - Early stopping: no improvement of the best config in `early_stopping` trials.
//   - The best configs per (input, output) layout pair are kept for the graph solver.

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <unordered_set>
#include <vector>

#include "layoutopt/tuning/layout_candidates.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_experience.h"
#include "layoutopt/tuning/tuning_task.h"
#include "layoutopt/tuning/xgboost_model.h"

namespace layoutopt::tuning {

struct TunerOptions {
  int64_t random_warmup = 16;
  double explore_share = 0.125;  ///< of each model-ranked batch, spent where the model is least sure
  double optimism = 2.0;         ///< disagreements added to a prediction for its upper bound
  int64_t max_scored = 32768;
  int64_t early_stopping = 200;  ///< trials without improvement; 0 disables
  /// Leave out configs whose register tile is far beyond the registers (see the header);
  /// off for a sweep of the whole space (`tune --exhaustive`).
  bool screen_far_tiles = true;
  size_t top_k = 3;              ///< candidates kept per layout pair
  uint64_t seed = 0;
  XGBoostParams model;
};

class TaskTuner {
 public:
  /// `experience` (may be null; must outlive the tuner) receives every measurement and
  /// ranks configs while this task has too few of its own.
  TaskTuner(const TuningTask& task, TunerOptions options, TuningExperience* experience = nullptr);

  /// Records the result of config `index` (fresh or from a log). A config seen again (timed
  /// again by config_confirmation) adds its timing to the candidates; the trial count, the
  /// best time and the cost models keep its first result.
  void observe(int64_t index, const MeasureResult& result);
  [[nodiscard]] bool measured(int64_t index) const { return measured_.contains(index); }
  /// Proposed configs not observed yet (in flight in a measurer that runs ahead).
  [[nodiscard]] int64_t in_flight() const { return static_cast<int64_t>(in_flight_.size()); }

  /// Up to `count` distinct unmeasured configs to measure next (fewer near exhaustion). A task
  /// with no trial yet starts with its default schedule's searched part (the rule from the
  /// shape, docs/design/default-schedules.md), so the search starts from a good config
  /// before it has anything to learn from.
  [[nodiscard]] std::vector<int64_t> propose(int64_t count);

  /// Early stopping counts from the next trial: for a space that has grown since its log
  /// was written (a knob no record names), whose new part the search has not looked at.
  void reopen() { last_improvement_trial_ = trials(); }

  /// Every searched config measured, being measured or screened out.
  [[nodiscard]] bool exhausted() const { return unproposable() >= task_->op.space().searched_size(); }
  /// Configs screened out so far (see the header): found as they were drawn or scored.
  [[nodiscard]] int64_t screened_out() const { return static_cast<int64_t>(screened_out_.size()); }
  [[nodiscard]] bool early_stopped() const;
  [[nodiscard]] bool finished() const { return exhausted() || early_stopped(); }

  [[nodiscard]] const TuningTask& task() const { return *task_; }
  [[nodiscard]] int64_t trials() const { return static_cast<int64_t>(measured_.size()); }
  [[nodiscard]] double best_seconds() const { return best_seconds_; }
  [[nodiscard]] std::optional<int64_t> best_index() const { return best_index_; }
  /// Cost of the most recent observed config (+inf when it failed or none yet).
  [[nodiscard]] double last_seconds() const { return last_seconds_; }
  /// Best cost after each trial, in trial order (the task scheduler's improvement signal).
  [[nodiscard]] const std::vector<double>& best_history() const { return best_history_; }
  [[nodiscard]] const LayoutCandidates& candidates() const { return candidates_; }

 private:
  [[nodiscard]] bool proposable(int64_t index) const {
    return !measured(index) && !in_flight_.contains(index) && !screened_out_.contains(index);
  }
  [[nodiscard]] int64_t unproposable() const { return trials() + in_flight() + screened_out(); }
  /// Whether config `index`, of these features, fails the screen; one that fails is
  /// remembered (screened_out_).
  bool screen_out(int64_t index, std::span<const float> features);
  /// Whether a proposable config passes the screen, or the screen is off.
  bool passes_screen(int64_t index);
  /// Up to `count` random proposable configs not in `taken`; with `screen`, only those that
  /// pass the screen (the model's pool is screened by its rows' features instead).
  [[nodiscard]] std::vector<int64_t> random_unmeasured(int64_t count, const std::unordered_set<int64_t>& taken,
                                                       bool screen = true);
  /// What ranks this task's configs now: its own model once it has enough measurements,
  /// else the session's shared one once that has enough, else nothing (random proposals).
  enum class Ranking { random, shared_model, own_model };
  [[nodiscard]] Ranking ranking() const;
  /// Up to `count` configs chosen by the model: the best predicted, and the exploration
  /// share by upper bound (see the header).
  [[nodiscard]] std::vector<int64_t> model_chosen(Ranking ranking, int64_t count,
                                                  const std::unordered_set<int64_t>& taken);
  [[nodiscard]] int64_t exploration_count(int64_t count) const;
  /// The unmeasured configs the model scores: all of them, or a random sample of `max_scored`.
  [[nodiscard]] std::vector<int64_t> scored_pool(const std::unordered_set<int64_t>& taken);

  const TuningTask* task_;
  TunerOptions options_;
  std::mt19937_64 rng_;
  TuningExperience own_;  ///< this task's working configs: its own model's training rows
  TuningExperience* experience_;

  std::unordered_set<int64_t> measured_;
  std::unordered_set<int64_t> in_flight_;
  std::unordered_set<int64_t> screened_out_;
  double best_seconds_ = std::numeric_limits<double>::infinity();
  std::optional<int64_t> best_index_;
  double last_seconds_ = std::numeric_limits<double>::infinity();
  int64_t last_improvement_trial_ = 0;
  std::vector<double> best_history_;
  LayoutCandidates candidates_;
};

}  // namespace layoutopt::tuning
