#pragma once
// XGBoostModel: gradient-boosted trees through XGBoost's C API, behind one small RAII class
// so nothing else in layoutopt sees the C API. Every C call is checked; a failure becomes
// an XGBoostError carrying XGBGetLastError()'s message.
//
//   XGBoostModel model({.rounds = 80});
//   model.fit(rows, cols, labels);               // rows: row-major, labels: one per row
//   std::vector<float> scores = model.predict(other_rows, cols);

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace layoutopt::tuning {

class XGBoostError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct XGBoostParams {
  int rounds = 80;          ///< boosting iterations per fit
  int max_depth = 6;
  double eta = 0.2;         ///< learning rate
  double subsample = 1.0;
  std::string objective = "reg:squarederror";
  int threads = 1;          ///< XGBoost's own threads (training runs between measurements)
  uint64_t seed = 0;
};

class XGBoostModel {
 public:
  explicit XGBoostModel(XGBoostParams params = {});
  ~XGBoostModel();
  XGBoostModel(XGBoostModel&& other) noexcept;
  XGBoostModel& operator=(XGBoostModel&& other) noexcept;
  XGBoostModel(const XGBoostModel&) = delete;
  XGBoostModel& operator=(const XGBoostModel&) = delete;

  /// Trains a fresh booster on `rows` (row-major, `cols` features each) and `labels`.
  /// Throws std::invalid_argument for mismatched sizes or no rows.
  void fit(std::span<const float> rows, size_t cols, std::span<const float> labels);
  /// Predicted label per row. Throws std::logic_error before the first fit.
  [[nodiscard]] std::vector<float> predict(std::span<const float> rows, size_t cols) const;
  [[nodiscard]] bool trained() const { return booster_ != nullptr; }

 private:
  void release();
  XGBoostParams params_;
  void* booster_ = nullptr;  ///< BoosterHandle; void* keeps <xgboost/c_api.h> out of this header
};

}  // namespace layoutopt::tuning
