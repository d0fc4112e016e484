#pragma once
// Costs of generated instances (internal), modelled on kernel schedules and layouts.
//
// Nodes come from a pool of layer "shapes" (consecutive nodes mostly share a shape, like
// the stages of a CNN). A shape's candidates each read one layout class (e.g. NCHW8c) and
// write one; their costs vary with the layouts and the tiling. An edge costs nothing when
// the source candidate writes the class the target candidate reads, and otherwise a
// transform cost proportional to the source's tensor, so edge matrices depend only on the
// pair of shapes and are shared. Forbidden entries replace some transforms.

#include <map>
#include <random>
#include <string>
#include <vector>

#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/matrix_pool.h"

namespace layoutopt::solvers::generator {

class CostModel {
 public:
  CostModel(const GeneratorOptions& options, std::mt19937_64& random);

  [[nodiscard]] int shape_of(int node) const { return node_shape_[node]; }
  [[nodiscard]] const Vector& node_costs(int shape) const { return shapes_[shape].costs; }
  [[nodiscard]] const std::vector<std::string>& labels(int shape) const { return shapes_[shape].labels; }
  /// The shared matrix for an edge from a node of shape `from` to one of shape `to`.
  [[nodiscard]] MatrixPtr edge_costs(int from, int to);

 private:
  struct Shape {
    std::vector<int> reads;   // layout class read by each candidate
    std::vector<int> writes;  // layout class written by each candidate
    Vector costs;
    std::vector<std::string> labels;
    double transform_ms = 0;  // cost of re-laying out this shape's output tensor
  };

  Shape make_shape(int candidates);

  std::mt19937_64& random_;
  double forbidden_;
  int classes_;
  Matrix class_penalty_;  // relative cost of each (from class, to class) transform
  std::vector<Shape> shapes_;
  std::vector<int> node_shape_;
  std::map<std::pair<int, int>, MatrixPtr> edge_cache_;
  MatrixPool pool_;
};

}  // namespace layoutopt::solvers::generator
