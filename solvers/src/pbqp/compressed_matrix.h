#pragma once
// An edge matrix with its duplicate rows and duplicate columns merged (internal).
//
// A layout-selection edge charges a transform that depends only on the producer's output
// layout and the consumer's input layout, so a 20 x 20 matrix usually has a handful of
// distinct rows and columns. Min-plus products against the distinct core are exact and cost
// O(rows + cols + R * C) instead of O(rows * cols); the dual bound does little else.

#include <vector>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers::pbqp {

class CompressedMatrix {
 public:
  explicit CompressedMatrix(const Matrix& matrix);

  [[nodiscard]] int rows() const { return static_cast<int>(row_class_.size()); }
  [[nodiscard]] int cols() const { return static_cast<int>(col_class_.size()); }
  /// Distinct rows times distinct columns, for statistics.
  [[nodiscard]] Eigen::Index core_size() const { return core_.size(); }
  /// Index of row i's distinct row in core(), and of column j's distinct column.
  [[nodiscard]] int row_class(int i) const { return row_class_[i]; }
  [[nodiscard]] int col_class(int j) const { return col_class_[j]; }
  /// The distinct rows x distinct columns: M(i, j) == core()(row_class(i), col_class(j)).
  [[nodiscard]] const Matrix& core() const { return core_; }

  /// out[i] = min_j M(i, j) + col_add[j]; `out` has one entry per row.
  void min_plus_over_cols(const Eigen::Ref<const Vector>& col_add, Eigen::Ref<Vector> out) const;
  /// out[j] = min_i M(i, j) + row_add[i]; `out` has one entry per column.
  void min_plus_over_rows(const Eigen::Ref<const Vector>& row_add, Eigen::Ref<Vector> out) const;
  /// min_ij M(i, j) + row_add[i] + col_add[j].
  [[nodiscard]] Cost min_plus(const Eigen::Ref<const Vector>& row_add, const Eigen::Ref<const Vector>& col_add) const;

  // The same products for the dual bound's message updates, where the added vector is
  // -message[k] on the candidates k whose `alive` cost is finite and +infinity elsewhere.
  // Taking the raw message and mask saves building that vector for every update, and the
  // plain loops avoid expression overhead on these tiny matrices (a handful of distinct
  // rows and columns); the results are bitwise those of the Ref versions above.
  /// out[i] = min_j M(i, j) - col_message[j] over alive columns j.
  void min_minus_over_cols(const double* col_message, const double* col_alive, double* out) const;
  /// out[j] = min_i M(i, j) - row_message[i] over alive rows i.
  void min_minus_over_rows(const double* row_message, const double* row_alive, double* out) const;
  /// min_ij M(i, j) - row_message[i] - col_message[j] over alive rows and columns.
  [[nodiscard]] Cost min_minus(const double* row_message, const double* row_alive, const double* col_message,
                               const double* col_alive) const;

 private:
  // Per class, the least of `add` over its members (classes are fixed, values change).
  static void class_minima(const std::vector<int>& classes, const Eigen::Ref<const Vector>& add, Vector& minima);
  // Per class, the least -message[k] over members k with a finite alive[k].
  static void masked_minima(const std::vector<int>& classes, const double* message, const double* alive,
                            Vector& minima);

  std::vector<int> row_class_;  // row -> index of its distinct row in core_
  std::vector<int> col_class_;  // column -> index of its distinct column in core_
  Matrix core_;                 // distinct rows x distinct columns
  // Workspace for class minima; the dual bound owns its matrices and runs single-threaded,
  // so reusing it saves an allocation in every message update.
  mutable Vector row_minima_;
  mutable Vector col_minima_;
  mutable Vector partial_;
};

}  // namespace layoutopt::solvers::pbqp
