#include "layoutopt/tuning/xgboost_model.h"

#include <xgboost/c_api.h>

#include <limits>
#include <utility>

namespace layoutopt::tuning {

namespace {

void check(int status, const char* call) {
  if (status != 0) throw XGBoostError(std::string("XGBoost ") + call + " failed: " + XGBGetLastError());
}

// Owns one DMatrixHandle.
class Matrix {
 public:
  Matrix(std::span<const float> rows, size_t cols) {
    if (cols == 0 || rows.size() % cols != 0)
      throw std::invalid_argument("XGBoost matrix: " + std::to_string(rows.size()) + " values are not rows of " +
                                  std::to_string(cols) + " features");
    // NaN marks missing values; our features are always present.
    check(XGDMatrixCreateFromMat(rows.data(), rows.size() / cols, cols, std::numeric_limits<float>::quiet_NaN(),
                                 &handle_),
          "XGDMatrixCreateFromMat");
  }
  ~Matrix() { XGDMatrixFree(handle_); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  [[nodiscard]] DMatrixHandle get() const { return handle_; }

 private:
  DMatrixHandle handle_ = nullptr;
};

void set_param(BoosterHandle booster, const char* name, const std::string& value) {
  check(XGBoosterSetParam(booster, name, value.c_str()), "XGBoosterSetParam");
}

void configure(BoosterHandle booster, const XGBoostParams& p) {
  set_param(booster, "objective", p.objective);
  set_param(booster, "max_depth", std::to_string(p.max_depth));
  set_param(booster, "eta", std::to_string(p.eta));
  set_param(booster, "subsample", std::to_string(p.subsample));
  set_param(booster, "nthread", std::to_string(p.threads));
  set_param(booster, "seed", std::to_string(p.seed));
  set_param(booster, "verbosity", "0");
}

}  // namespace

XGBoostModel::XGBoostModel(XGBoostParams params) : params_(std::move(params)) {}

XGBoostModel::~XGBoostModel() { release(); }

XGBoostModel::XGBoostModel(XGBoostModel&& other) noexcept
    : params_(std::move(other.params_)), booster_(std::exchange(other.booster_, nullptr)) {}

XGBoostModel& XGBoostModel::operator=(XGBoostModel&& other) noexcept {
  if (this != &other) {
    release();
    params_ = std::move(other.params_);
    booster_ = std::exchange(other.booster_, nullptr);
  }
  return *this;
}

void XGBoostModel::release() {
  if (booster_) XGBoosterFree(static_cast<BoosterHandle>(booster_));
  booster_ = nullptr;
}

void XGBoostModel::fit(std::span<const float> rows, size_t cols, std::span<const float> labels) {
  if (labels.empty() || cols == 0 || rows.size() != labels.size() * cols)
    throw std::invalid_argument("XGBoostModel::fit: need one label per row of " + std::to_string(cols) +
                                " features (got " + std::to_string(rows.size()) + " values, " +
                                std::to_string(labels.size()) + " labels)");
  const Matrix train(rows, cols);
  check(XGDMatrixSetFloatInfo(train.get(), "label", labels.data(), labels.size()), "XGDMatrixSetFloatInfo");
  release();
  BoosterHandle booster = nullptr;
  const DMatrixHandle cache[] = {train.get()};
  check(XGBoosterCreate(cache, 1, &booster), "XGBoosterCreate");
  booster_ = booster;
  configure(booster, params_);
  for (int iteration = 0; iteration < params_.rounds; ++iteration)
    check(XGBoosterUpdateOneIter(booster, iteration, train.get()), "XGBoosterUpdateOneIter");
}

std::vector<float> XGBoostModel::predict(std::span<const float> rows, size_t cols) const {
  if (!booster_) throw std::logic_error("XGBoostModel::predict called before fit");
  const Matrix data(rows, cols);
  bst_ulong length = 0;
  const float* values = nullptr;
  // option_mask 0: plain predictions; ntree_limit 0: all trees; training 0: inference.
  check(XGBoosterPredict(static_cast<BoosterHandle>(booster_), data.get(), 0, 0, 0, &length, &values),
        "XGBoosterPredict");
  return {values, values + length};
}

}  // namespace layoutopt::tuning
