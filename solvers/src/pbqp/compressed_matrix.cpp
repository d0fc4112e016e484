#include "pbqp/compressed_matrix.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace layoutopt::solvers::pbqp {

namespace {

// Bitwise key of one row or column, so equal vectors (infinities included) share a class.
using Key = std::vector<double>;

// Groups the vectors produced by `slice(k)` for k < count; returns each one's class and the
// representative (first member) of every class.
template <typename Slice>
std::vector<int> classify(int count, Slice slice, std::vector<int>& representatives) {
  std::map<Key, int> seen;
  std::vector<int> classes(count);
  for (int k = 0; k < count; ++k) {
    const auto [it, fresh] = seen.try_emplace(slice(k), static_cast<int>(representatives.size()));
    if (fresh) representatives.push_back(k);
    classes[k] = it->second;
  }
  return classes;
}

Key to_key(const auto& values) { return Key(values.begin(), values.end()); }

}  // namespace

CompressedMatrix::CompressedMatrix(const Matrix& matrix) {
  std::vector<int> row_reps;
  std::vector<int> col_reps;
  row_class_ = classify(static_cast<int>(matrix.rows()), [&](int i) { return to_key(matrix.row(i)); }, row_reps);
  col_class_ = classify(static_cast<int>(matrix.cols()), [&](int j) { return to_key(matrix.col(j)); }, col_reps);
  core_.resize(static_cast<Eigen::Index>(row_reps.size()), static_cast<Eigen::Index>(col_reps.size()));
  for (size_t r = 0; r < row_reps.size(); ++r)
    for (size_t c = 0; c < col_reps.size(); ++c)
      core_(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = matrix(row_reps[r], col_reps[c]);
  row_minima_.resize(core_.rows());
  col_minima_.resize(core_.cols());
  partial_.resize(std::max(core_.rows(), core_.cols()));
}

void CompressedMatrix::class_minima(const std::vector<int>& classes, const Eigen::Ref<const Vector>& add,
                                    Vector& minima) {
  minima.setConstant(kInfinity);
  for (size_t k = 0; k < classes.size(); ++k) {
    double& slot = minima[classes[k]];
    slot = std::min(slot, add[static_cast<Eigen::Index>(k)]);
  }
}

void CompressedMatrix::min_plus_over_cols(const Eigen::Ref<const Vector>& col_add, Eigen::Ref<Vector> out) const {
  assert(col_add.size() == cols() && out.size() == rows() && "min_plus_over_cols: vector length mismatch");
  class_minima(col_class_, col_add, col_minima_);
  for (Eigen::Index r = 0; r < core_.rows(); ++r) partial_[r] = (core_.row(r).transpose() + col_minima_).minCoeff();
  for (int i = 0; i < rows(); ++i) out[i] = partial_[row_class_[i]];
}

void CompressedMatrix::min_plus_over_rows(const Eigen::Ref<const Vector>& row_add, Eigen::Ref<Vector> out) const {
  assert(row_add.size() == rows() && out.size() == cols() && "min_plus_over_rows: vector length mismatch");
  class_minima(row_class_, row_add, row_minima_);
  for (Eigen::Index c = 0; c < core_.cols(); ++c) partial_[c] = (core_.col(c) + row_minima_).minCoeff();
  for (int j = 0; j < cols(); ++j) out[j] = partial_[col_class_[j]];
}

Cost CompressedMatrix::min_plus(const Eigen::Ref<const Vector>& row_add,
                                const Eigen::Ref<const Vector>& col_add) const {
  assert(row_add.size() == rows() && col_add.size() == cols() && "min_plus: vector length mismatch");
  class_minima(row_class_, row_add, row_minima_);
  class_minima(col_class_, col_add, col_minima_);
  return ((core_.colwise() + row_minima_).rowwise() + col_minima_.transpose()).minCoeff();
}

void CompressedMatrix::masked_minima(const std::vector<int>& classes, const double* message, const double* alive,
                                     Vector& minima) {
  double* slots = minima.data();
  std::fill(slots, slots + minima.size(), kInfinity);
  const size_t count = classes.size();
  for (size_t k = 0; k < count; ++k)
    if (is_finite(alive[k])) slots[classes[k]] = std::min(slots[classes[k]], -message[k]);
}

void CompressedMatrix::min_minus_over_cols(const double* col_message, const double* col_alive, double* out) const {
  masked_minima(col_class_, col_message, col_alive, col_minima_);
  const Eigen::Index distinct_rows = core_.rows();
  const Eigen::Index distinct_cols = core_.cols();
  const double* core = core_.data();  // column-major
  const double* minima = col_minima_.data();
  for (Eigen::Index r = 0; r < distinct_rows; ++r) {
    double best = kInfinity;
    for (Eigen::Index c = 0; c < distinct_cols; ++c) best = std::min(best, core[r + c * distinct_rows] + minima[c]);
    partial_[r] = best;
  }
  const int count = rows();
  for (int i = 0; i < count; ++i) out[i] = partial_[row_class_[i]];
}

void CompressedMatrix::min_minus_over_rows(const double* row_message, const double* row_alive, double* out) const {
  masked_minima(row_class_, row_message, row_alive, row_minima_);
  const Eigen::Index distinct_rows = core_.rows();
  const Eigen::Index distinct_cols = core_.cols();
  const double* minima = row_minima_.data();
  for (Eigen::Index c = 0; c < distinct_cols; ++c) {
    const double* column = core_.data() + c * distinct_rows;
    double best = kInfinity;
    for (Eigen::Index r = 0; r < distinct_rows; ++r) best = std::min(best, column[r] + minima[r]);
    partial_[c] = best;
  }
  const int count = cols();
  for (int j = 0; j < count; ++j) out[j] = partial_[col_class_[j]];
}

Cost CompressedMatrix::min_minus(const double* row_message, const double* row_alive, const double* col_message,
                                 const double* col_alive) const {
  masked_minima(row_class_, row_message, row_alive, row_minima_);
  masked_minima(col_class_, col_message, col_alive, col_minima_);
  const Eigen::Index distinct_rows = core_.rows();
  const Eigen::Index distinct_cols = core_.cols();
  double best = kInfinity;
  for (Eigen::Index c = 0; c < distinct_cols; ++c) {
    const double* column = core_.data() + c * distinct_rows;
    for (Eigen::Index r = 0; r < distinct_rows; ++r) best = std::min(best, (column[r] + row_minima_[r]) + col_minima_[c]);
  }
  return best;
}

}  // namespace layoutopt::solvers::pbqp
