#include "layoutopt/tuning/task_tuner.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "layoutopt/tuning/config_features.h"
#include "layoutopt/tuning/transferred_experience.h"

namespace layoutopt::tuning {

namespace {

// Rejection sampling gives up after this many draws per wanted config and falls back to
// enumerating the unmeasured configs (only happens when few are left).
constexpr int64_t kDrawsPerConfig = 64;

std::vector<int64_t> shuffled_prefix(std::vector<int64_t> pool, int64_t count, std::mt19937_64& rng) {
  std::shuffle(pool.begin(), pool.end(), rng);
  if (static_cast<int64_t>(pool.size()) > count) pool.resize(static_cast<size_t>(count));
  return pool;
}

}  // namespace

TaskTuner::TaskTuner(const TuningTask& task, TunerOptions options, TuningExperience* experience)
    : task_(&task),
      options_(options),
      rng_(options.seed),
      own_(options.model),
      experience_(experience),
      candidates_(options.top_k) {}

void TaskTuner::observe(int64_t index, const MeasureResult& result) {
  const double seconds = result.seconds();
  if (!task_->op.space().searched(index)) {
    // A variant of a searched config (a derived knob set): a layout option for the planner,
    // not a search trial, and invisible to the cost model, whose features ignore it.
    if (result.ok()) candidates_.add({index, seconds, task_->op.layouts(index)});
    return;
  }
  last_seconds_ = seconds;
  in_flight_.erase(index);
  screened_out_.erase(index);  // measured anyway (a resumed log): counted once, as a trial
  const bool first_time = measured_.insert(index).second;
  if (result.ok()) candidates_.add({index, seconds, task_->op.layouts(index)});
  if (!first_time) return;
  if (result.ok()) {
    const float log_gflops = experience_label(*task_, seconds);
    const std::vector<float> features = config_features(*task_, index);
    own_.add(features, log_gflops);
    if (experience_) experience_->add(features, log_gflops);
  }
  if (seconds < best_seconds_) {
    best_seconds_ = seconds;
    best_index_ = index;
    last_improvement_trial_ = trials();
  }
  best_history_.push_back(best_seconds_);
}

bool TaskTuner::early_stopped() const {
  return options_.early_stopping > 0 && trials() - last_improvement_trial_ >= options_.early_stopping;
}

std::vector<int64_t> TaskTuner::propose(int64_t count) {
  const int64_t left = task_->op.space().searched_size() - unproposable();
  count = std::min(count, left);
  if (count <= 0) return {};
  std::unordered_set<int64_t> taken;
  std::vector<int64_t> batch;
  if (trials() == 0 && in_flight() == 0) {  // the rule's config first (see the header)
    const kernels::ConfigSpace& space = task_->op.space();
    const int64_t rule = space.searched_part(task_->op.default_index());
    if (proposable(rule)) {
      batch.push_back(rule);
      taken.insert(rule);
    }
  }
  const Ranking ranking = this->ranking();
  if (ranking != Ranking::random)
    for (int64_t index : model_chosen(ranking, count - static_cast<int64_t>(batch.size()), taken)) {
      batch.push_back(index);
      taken.insert(index);
    }
  for (int64_t index : random_unmeasured(count - static_cast<int64_t>(batch.size()), taken)) batch.push_back(index);
  in_flight_.insert(batch.begin(), batch.end());
  return batch;
}

bool TaskTuner::screen_out(int64_t index, std::span<const float> features) {
  if (!tile_far_beyond_registers(*task_, features)) return false;
  screened_out_.insert(index);
  return true;
}

bool TaskTuner::passes_screen(int64_t index) {
  return !options_.screen_far_tiles || !screen_out(index, config_features(*task_, index));
}

std::vector<int64_t> TaskTuner::random_unmeasured(int64_t count, const std::unordered_set<int64_t>& taken,
                                                  bool screen) {
  const int64_t size = task_->op.space().searched_size();
  std::uniform_int_distribution<int64_t> any(0, size - 1);
  std::unordered_set<int64_t> chosen;
  std::vector<int64_t> result;
  const auto wanted = [&](int64_t index) {
    return proposable(index) && !taken.contains(index) && !chosen.contains(index) && (!screen || passes_screen(index));
  };
  for (int64_t draw = 0; static_cast<int64_t>(result.size()) < count && draw < kDrawsPerConfig * count; ++draw) {
    const int64_t index = any(rng_);
    if (!wanted(index)) continue;
    chosen.insert(index);
    result.push_back(index);
  }
  if (static_cast<int64_t>(result.size()) == count) return result;
  std::vector<int64_t> pool;
  for (int64_t index = 0; index < size; ++index)
    if (wanted(index)) pool.push_back(index);
  for (int64_t index : shuffled_prefix(std::move(pool), count - static_cast<int64_t>(result.size()), rng_))
    result.push_back(index);
  return result;
}

TaskTuner::Ranking TaskTuner::ranking() const {
  const auto enough = [&](size_t rows) { return static_cast<int64_t>(rows) >= options_.random_warmup; };
  if (enough(own_.rows())) return Ranking::own_model;
  if (experience_ && enough(experience_->rows())) return Ranking::shared_model;
  return Ranking::random;
}

int64_t TaskTuner::exploration_count(int64_t count) const {
  if (count < 2 || options_.explore_share <= 0) return 0;
  const auto share = static_cast<int64_t>(std::llround(options_.explore_share * static_cast<double>(count)));
  return std::clamp<int64_t>(share, 1, count);
}

std::vector<int64_t> TaskTuner::scored_pool(const std::unordered_set<int64_t>& taken) {
  const int64_t size = task_->op.space().searched_size();
  if (size - unproposable() > options_.max_scored) return random_unmeasured(options_.max_scored, taken, false);
  std::vector<int64_t> pool;
  for (int64_t index = 0; index < size; ++index)
    if (proposable(index) && !taken.contains(index)) pool.push_back(index);
  return pool;
}

std::vector<int64_t> TaskTuner::model_chosen(Ranking ranking, int64_t count, const std::unordered_set<int64_t>& taken) {
  const std::vector<int64_t> pool = scored_pool(taken);
  if (pool.empty() || count <= 0) return {};
  TuningExperience& model = ranking == Ranking::own_model ? own_ : *experience_;
  const std::vector<float> rows = config_feature_rows(*task_, pool);
  const std::vector<float> predicted = model.predict(rows);
  // Screened out configs are never chosen (marked picked), whatever their score.
  std::vector<bool> picked(pool.size(), false);
  for (size_t i = 0; i < pool.size() && options_.screen_far_tiles; ++i)
    picked[i] = screen_out(pool[i], std::span<const float>(rows).subspan(i * kConfigFeatureCount, kConfigFeatureCount));
  const auto best_first = [&pool](const std::vector<float>& score) {
    std::vector<size_t> order(pool.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
    return order;
  };
  const int64_t explore = exploration_count(count);
  std::vector<int64_t> chosen;
  for (size_t i : best_first(predicted)) {
    if (static_cast<int64_t>(chosen.size()) >= count - explore) break;
    if (picked[i]) continue;
    chosen.push_back(pool[i]);
    picked[i] = true;
  }
  if (explore == 0) return chosen;
  std::vector<float> upper = model.disagreement(rows);
  for (size_t i = 0; i < upper.size(); ++i)
    upper[i] = predicted[i] + static_cast<float>(options_.optimism) * upper[i];
  for (size_t i : best_first(upper)) {
    if (static_cast<int64_t>(chosen.size()) >= count) break;
    if (!picked[i]) chosen.push_back(pool[i]);
  }
  return chosen;
}

}  // namespace layoutopt::tuning
