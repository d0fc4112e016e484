#include "pbqp/compressed_matrix.h"

#include <doctest/doctest.h>

#include <random>

namespace layoutopt::solvers::pbqp {

namespace {

// A layout-style matrix: entry (i, j) depends only on i's and j's classes, some forbidden.
Matrix layout_matrix(std::mt19937_64& random, int rows, int cols) {
  std::uniform_int_distribution<int> layout(0, 2);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Matrix by_class(3, 3);
  for (Eigen::Index k = 0; k < by_class.size(); ++k) by_class.data()[k] = unit(random) < 0.2 ? kInfinity : unit(random);
  std::vector<int> row_layout(rows);
  std::vector<int> col_layout(cols);
  for (int& l : row_layout) l = layout(random);
  for (int& l : col_layout) l = layout(random);
  Matrix matrix(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) matrix(i, j) = by_class(row_layout[i], col_layout[j]);
  return matrix;
}

Vector random_vector(std::mt19937_64& random, int size) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Vector v(size);
  for (int k = 0; k < size; ++k) v[k] = unit(random) < -0.8 ? kInfinity : unit(random);
  return v;
}

}  // namespace

TEST_CASE("compressed min-plus products equal the uncompressed ones") {
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const Matrix matrix = layout_matrix(random, 1 + trial % 7, 1 + trial % 5);
    const CompressedMatrix compressed(matrix);
    CHECK(compressed.core_size() <= 9);
    const Vector row_add = random_vector(random, compressed.rows());
    const Vector col_add = random_vector(random, compressed.cols());
    Vector over_cols(compressed.rows());
    Vector over_rows(compressed.cols());
    compressed.min_plus_over_cols(col_add, over_cols);
    compressed.min_plus_over_rows(row_add, over_rows);
    CHECK(over_cols == (matrix.rowwise() + col_add.transpose()).rowwise().minCoeff());
    CHECK(over_rows == (matrix.colwise() + row_add).colwise().minCoeff().transpose());
    CHECK(compressed.min_plus(row_add, col_add) == ((matrix.colwise() + row_add).rowwise() + col_add.transpose()).minCoeff());
  }
}

}  // namespace layoutopt::solvers::pbqp
