#include "layoutopt/solvers/matrix_pool.h"

#include <bit>
#include <cstdint>

namespace layoutopt::solvers {

namespace {

size_t content_hash(const Matrix& matrix) {
  size_t hash = std::hash<Eigen::Index>{}(matrix.rows()) * 31 + std::hash<Eigen::Index>{}(matrix.cols());
  for (Eigen::Index i = 0; i < matrix.size(); ++i)
    hash = hash * 1099511628211ULL ^ std::bit_cast<uint64_t>(matrix.data()[i]);
  return hash;
}

bool same_content(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (std::bit_cast<uint64_t>(a.data()[i]) != std::bit_cast<uint64_t>(b.data()[i])) return false;
  return true;
}

}  // namespace

MatrixPtr MatrixPool::intern(Matrix matrix) {
  std::vector<MatrixPtr>& bucket = buckets_[content_hash(matrix)];
  for (const MatrixPtr& existing : bucket)
    if (same_content(*existing, matrix)) return existing;
  bucket.push_back(std::make_shared<const Matrix>(std::move(matrix)));
  ++count_;
  return bucket.back();
}

}  // namespace layoutopt::solvers
