#include "generator/cost_model.h"

#include <algorithm>

namespace layoutopt::solvers::generator {

namespace {

std::string layout_name(int layout_class) { return "NCHW" + std::to_string(1 << layout_class) + "c"; }

}  // namespace

CostModel::CostModel(const GeneratorOptions& options, std::mt19937_64& random)
    : random_(random),
      forbidden_(options.forbidden_probability),
      classes_(std::clamp(options.candidates / 3, 2, 6)) {
  std::uniform_real_distribution<double> penalty(0.5, 1.5);
  class_penalty_.resize(classes_, classes_);
  for (Eigen::Index i = 0; i < class_penalty_.size(); ++i) class_penalty_.data()[i] = penalty(random_);

  const int shape_count = std::clamp(options.nodes / 25, 4, 40);
  for (int s = 0; s < shape_count; ++s) shapes_.push_back(make_shape(options.candidates));
  // Consecutive nodes form stages sharing a shape; some nodes deviate to a neighbour stage.
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (int v = 0; v < options.nodes; ++v) {
    int shape = static_cast<int>(static_cast<long>(v) * shape_count / options.nodes);
    if (coin(random_) < 0.3) shape = std::clamp(shape + (coin(random_) < 0.5 ? -1 : 1), 0, shape_count - 1);
    node_shape_.push_back(shape);
  }
}

CostModel::Shape CostModel::make_shape(int candidates) {
  std::uniform_int_distribution<int> layout(0, classes_ - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double base_ms = 0.05 + 0.95 * unit(random_);
  // Each layout class suits this shape more or less well (vector width vs channels).
  std::vector<double> affinity;
  for (int c = 0; c < classes_; ++c) affinity.push_back(0.8 + 0.5 * unit(random_));
  Shape shape;
  shape.transform_ms = base_ms * (0.05 + 0.2 * unit(random_));
  shape.costs.resize(candidates);
  for (int i = 0; i < candidates; ++i) {
    shape.reads.push_back(layout(random_));
    shape.writes.push_back(layout(random_));
    const double tiling = 0.9 + 0.3 * unit(random_);
    shape.costs[i] = base_ms * affinity[shape.reads.back()] * affinity[shape.writes.back()] * tiling;
    shape.labels.push_back(layout_name(shape.reads.back()) + "->" + layout_name(shape.writes.back()) + " #" +
                           std::to_string(i));
  }
  return shape;
}

MatrixPtr CostModel::edge_costs(int from, int to) {
  const auto cached = edge_cache_.find({from, to});
  if (cached != edge_cache_.end()) return cached->second;
  const Shape& source = shapes_[from];
  const Shape& target = shapes_[to];
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Matrix costs(static_cast<Eigen::Index>(source.writes.size()), static_cast<Eigen::Index>(target.reads.size()));
  for (Eigen::Index i = 0; i < costs.rows(); ++i)
    for (Eigen::Index j = 0; j < costs.cols(); ++j) {
      const int written = source.writes[i];
      const int read = target.reads[j];
      if (written == read)
        costs(i, j) = 0.0;
      else
        costs(i, j) = coin(random_) < forbidden_ ? kInfinity : source.transform_ms * class_penalty_(written, read);
    }
  return edge_cache_[{from, to}] = pool_.intern(std::move(costs));
}

}  // namespace layoutopt::solvers::generator
