#pragma once
// Shared pieces of the tuning tests: small tasks, a deterministic fake measurer, scratch files.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/task_args.h"
#include "layoutopt/tuning/task_tuner.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::testing {

/// A 3x3 conv, `channels` -> `channels` on `image` x `image` pixels (32 on 14 x 14 by default).
inline tuning::TuningTask small_conv_task(int64_t channels = 32, int64_t weight = 1, int64_t image = 14,
                                          int64_t stride = 1) {
  kernels::Conv2dDesc d;
  d.in_channels = d.out_channels = channels;
  d.in_h = d.in_w = image;
  d.kernel_h = d.kernel_w = 3;
  d.stride_h = d.stride_w = stride;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
  return tuning::make_task(kernels::TunableOp::conv2d(d), weight);
}

/// Synthetic cost: fastest at tile_oc 16, tile_ow 7, tile_ic 8, unroll on; smooth elsewhere.
inline double synthetic_seconds(const std::map<std::string, int64_t>& k) {
  const auto distance = [](double v, double best) { return std::pow(std::log2(v) - std::log2(best), 2); };
  return 1e-4 * (1 + distance(static_cast<double>(k.at("tile_oc")), 16) + distance(static_cast<double>(k.at("tile_ow")), 7) +
                 0.5 * distance(static_cast<double>(k.at("tile_ic")), 8) + (k.at("unroll_kw") ? 0.0 : 0.3));
}

/// Measures nothing: returns synthetic_seconds and counts calls per (task, config).
class FakeMeasurer : public tuning::Measurer {
 public:
  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
    ++calls[{task.task_key(), index}];
    tuning::MeasureResult r;
    r.costs_s = {synthetic_seconds(task.op.knobs(index))};
    r.timestamp = 1.7e9;
    return r;
  }
  std::map<std::pair<tuning::TaskKey, int64_t>, int> calls;
};

/// Synthetic costs of the next `count` configs a tuner proposes for `task`, sorted: how good
/// its first batch is.
inline std::vector<double> proposed_costs(tuning::TaskTuner& tuner, const tuning::TuningTask& task, int64_t count = 8) {
  std::vector<double> costs;
  for (int64_t index : tuner.propose(count)) costs.push_back(synthetic_seconds(task.op.knobs(index)));
  std::sort(costs.begin(), costs.end());
  return costs;
}

/// A unique path under the system temp folder, removed with the object.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("layoutopt_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++) + "_" + name)) {
    std::filesystem::remove(path_);
  }
  ~ScratchFile() { std::filesystem::remove(path_); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  static std::atomic<int>& counter() {
    static std::atomic<int> value{0};
    return value;
  }
  std::filesystem::path path_;
};

}  // namespace layoutopt::testing
