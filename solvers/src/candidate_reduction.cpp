#include "layoutopt/solvers/candidate_reduction.h"

#include <algorithm>
#include <deque>
#include <map>
#include <span>
#include <tuple>

#include "pbqp/compressed_matrix.h"

namespace layoutopt::solvers {

namespace {

using pbqp::CompressedMatrix;

// An edge matrix's distinct core seen from one end: that end's candidates index the lines
// (core rows), the other end's the crosses (core columns), so both ends read it alike.
struct Oriented {
  Oriented(const CompressedMatrix& matrix, bool rows_are_lines)
      : core(rows_are_lines ? matrix.core() : Matrix(matrix.core().transpose())) {
    const auto classes = [&](bool of_rows, Eigen::Index count) {
      std::vector<int> result;
      for (int k = 0; k < count; ++k) result.push_back(of_rows ? matrix.row_class(k) : matrix.col_class(k));
      return result;
    };
    line_of = classes(rows_are_lines, rows_are_lines ? matrix.rows() : matrix.cols());
    cross_of = classes(!rows_are_lines, rows_are_lines ? matrix.cols() : matrix.rows());
  }
  Matrix core;
  std::vector<int> line_of;   // candidate of this end -> core row
  std::vector<int> cross_of;  // candidate of the other end -> core column
};

// Dead-end elimination with Goldstein's criterion. Candidate b of node v is removable when
// another remaining candidate a satisfies
//   c_v(a) - c_v(b) + sum over edges e = (v, w) of  max_j [C_e(a, j) - C_e(b, j)]  <=  0,
// j ranging over w's remaining candidates with C_e(b, j) finite: swapping b for a in any
// finite assignment then costs nothing more, so some optimum avoids b. Removing b at once
// keeps the argument valid for later checks (they only look at remaining candidates), and
// a removal can make a neighbour's maxima smaller, so neighbours are checked again until
// nothing changes. Elementwise dominance is the special case where every term is <= 0.
//
// Edge matrices are read through their distinct rows and columns (a layout edge's 20 x 20
// matrix has a handful), so the pairwise maxima cost distinct rows^2 x distinct columns per
// edge instead of candidates^3. Each side caches its maxima until the far end changes.
// Cost: 7-8 ms on the 1,000-node randomly wired instance, 16 ms on dense-1000 (most pairs
// are tried there and few dominate).
class DeadEndElimination {
 public:
  explicit DeadEndElimination(const Problem& problem)
      : problem_(problem), alive_(problem.node_count()), changes_(problem.node_count(), 0) {
    for (const Edge& edge : problem.edges()) {
      if (oriented_.contains({edge.costs.get(), true})) continue;
      const CompressedMatrix compressed(*edge.costs);
      oriented_.emplace(std::pair{edge.costs.get(), true}, Oriented(compressed, true));
      oriented_.emplace(std::pair{edge.costs.get(), false}, Oriented(compressed, false));
    }
    for (int v = 0; v < static_cast<int>(problem.node_count()); ++v) {
      alive_[v].assign(problem.candidates(v), 1);
      for (int e : problem.incident(v)) sides_.push_back(side(e, v));
      first_side_.push_back(static_cast<int>(sides_.size()) - static_cast<int>(problem.incident(v).size()));
    }
    first_side_.push_back(static_cast<int>(sides_.size()));
  }

  void run() {
    const auto n = static_cast<int>(problem_.node_count());
    std::deque<int> queue;
    std::vector<char> queued(n, 1);
    for (int v = 0; v < n; ++v) queue.push_back(v);
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      queued[v] = 0;
      if (!prune(v)) continue;
      ++changes_[v];
      for (int e : problem_.incident(v)) {
        const int w = other(e, v);
        if (!queued[w]) queue.push_back(w), queued[w] = 1;
      }
    }
  }

  [[nodiscard]] std::vector<int> kept(int v) const {
    std::vector<int> result;
    for (int i = 0; i < static_cast<int>(alive_[v].size()); ++i)
      if (alive_[v][i]) result.push_back(i);
    return result;
  }

 private:
  // Edge e seen from node v: v's candidates index the lines (rows of the distinct core when
  // v is the edge's source, columns otherwise), the neighbour's candidates the crosses.
  // `worst` caches the pairwise maxima for the neighbour's remaining candidates as of its
  // `seen`-th change, so a node checked again recomputes only the edges whose far end moved.
  struct Side {
    const Oriented* edge = nullptr;
    int other = 0;
    Matrix worst;
    int seen = -1;

    [[nodiscard]] Cost worst_of(int a, int b) const { return worst(edge->line_of[a], edge->line_of[b]); }
  };

  [[nodiscard]] int other(int e, int v) const {
    const Edge& edge = problem_.edges()[e];
    return edge.from == v ? edge.to : edge.from;
  }

  [[nodiscard]] Side side(int e, int v) const {
    const Edge& edge = problem_.edges()[e];
    Side result;
    result.edge = &oriented_.at({edge.costs.get(), edge.from == v});
    result.other = other(e, v);
    return result;
  }

  // worst(a, b) = max over the neighbour's remaining distinct crosses c with M(b, c) finite
  // of M(a, c) - M(b, c); -infinity when b has no finite partner left.
  void update_worst(Side& side) {
    if (side.seen == changes_[side.other]) return;
    side.seen = changes_[side.other];
    const Matrix& core = side.edge->core;
    open_.assign(static_cast<size_t>(core.cols()), 0);
    const std::vector<char>& partners = alive_[side.other];
    for (int j = 0; j < static_cast<int>(partners.size()); ++j)
      if (partners[j]) open_[side.edge->cross_of[j]] = 1;
    side.worst.setConstant(core.rows(), core.rows(), -kInfinity);
    for (Eigen::Index c = 0; c < core.cols(); ++c) {
      if (!open_[c]) continue;
      for (Eigen::Index b = 0; b < core.rows(); ++b) {
        if (!is_finite(core(b, c))) continue;
        side.worst.col(b) = side.worst.col(b).array().max(core.col(c).array() - core(b, c)).matrix();
      }
    }
  }

  // Removes v's dead ends; true when any went. Later candidates are tried first, so of two
  // identical candidates the first stays.
  bool prune(int v) {
    const std::span<Side> sides(sides_.begin() + first_side_[v], sides_.begin() + first_side_[v + 1]);
    for (Side& side : sides) update_worst(side);
    const Vector& costs = problem_.node(v).costs;
    std::vector<char>& alive = alive_[v];
    const auto count = static_cast<int>(alive.size());
    // A candidate no finite assignment can use goes as long as the node keeps another one.
    auto dead = [&](int b) {
      if (!is_finite(costs[b])) return true;
      return std::ranges::any_of(sides, [&](const Side& side) { return side.worst_of(b, b) == -kInfinity; });
    };
    bool removed = false;
    for (int b = count - 1; b >= 0; --b) {
      if (!alive[b]) continue;
      const bool hopeless = dead(b);
      for (int a = 0; a < count && alive[b]; ++a) {
        if (a == b || !alive[a]) continue;
        if (!hopeless && !dominates(a, b, costs, sides)) continue;
        alive[b] = 0;
        removed = true;
      }
    }
    return removed;
  }

  // Goldstein's sum for a completable b (finite cost, a finite partner on every edge), so
  // every term is finite or +infinity.
  static bool dominates(int a, int b, const Vector& costs, std::span<const Side> sides) {
    Cost change = costs[a] - costs[b];
    for (size_t k = 0; k < sides.size() && change <= 0; ++k) change += sides[k].worst_of(a, b);
    return change <= 0;
  }

  const Problem& problem_;
  std::vector<std::vector<char>> alive_;
  std::vector<int> changes_;      // per node: how many times it lost candidates
  std::vector<Side> sides_;       // every node's incident edges, node by node
  std::vector<int> first_side_;   // node v's sides are [first_side_[v], first_side_[v + 1])
  std::vector<char> open_;        // workspace: which distinct crosses still have a candidate
  std::map<std::pair<const Matrix*, bool>, Oriented> oriented_;  // per matrix and end
};

Vector select(const Vector& values, const std::vector<int>& indices) {
  Vector result(static_cast<Eigen::Index>(indices.size()));
  for (size_t k = 0; k < indices.size(); ++k) result[static_cast<Eigen::Index>(k)] = values[indices[k]];
  return result;
}

// A single remaining candidate makes every edge at its node a cost of the other end alone
// (the row or column it leaves), so such edges are folded into node costs and dropped: the
// graph the solvers see loses those edges, and with them width and reductions to do. An
// edge between two single candidates is a constant, kept in its source's cost.
void fold_edge(const Matrix& costs, const std::vector<int>& rows, const std::vector<int>& cols, Vector& from_costs,
               Vector& to_costs) {
  if (rows.size() == 1) {
    for (size_t c = 0; c < cols.size(); ++c) to_costs[static_cast<Eigen::Index>(c)] += costs(rows[0], cols[c]);
    return;
  }
  for (size_t r = 0; r < rows.size(); ++r) from_costs[static_cast<Eigen::Index>(r)] += costs(rows[r], cols[0]);
}

}  // namespace

CandidateReduction eliminate_dominated_candidates(const Problem& problem) {
  DeadEndElimination elimination(problem);
  elimination.run();
  CandidateReduction result;
  const auto n = static_cast<int>(problem.node_count());
  std::vector<Vector> costs;
  for (int v = 0; v < n; ++v) {
    result.kept.push_back(elimination.kept(v));
    result.original_candidates.push_back(problem.candidates(v));
    costs.push_back(select(problem.node(v).costs, result.kept.back()));
  }
  std::vector<const Edge*> kept_edges;
  for (const Edge& edge : problem.edges()) {
    const std::vector<int>& rows = result.kept[edge.from];
    const std::vector<int>& cols = result.kept[edge.to];
    if (rows.size() == 1 || cols.size() == 1)
      fold_edge(*edge.costs, rows, cols, costs[edge.from], costs[edge.to]);
    else
      kept_edges.push_back(&edge);
  }
  for (int v = 0; v < n; ++v) {
    const Node& node = problem.node(v);
    std::vector<std::string> labels;
    for (int i : result.kept[v])
      if (!node.labels.empty()) labels.push_back(node.labels[i]);
    result.reduced.add_node(node.name, std::move(costs[v]), std::move(labels));
  }
  // Shared input matrices reduced the same way stay shared: nodes of one layer shape
  // usually keep the same candidates. Kept sets are compared by an id of their own.
  std::map<std::vector<int>, int> kept_ids;
  std::vector<int> kept_id;
  for (const std::vector<int>& kept : result.kept)
    kept_id.push_back(kept_ids.try_emplace(kept, static_cast<int>(kept_ids.size())).first->second);
  std::map<std::tuple<const Matrix*, int, int>, MatrixPtr> reduced;
  for (const Edge* edge : kept_edges) {
    MatrixPtr& matrix = reduced[{edge->costs.get(), kept_id[edge->from], kept_id[edge->to]}];
    if (!matrix)
      matrix = std::make_shared<const Matrix>((*edge->costs)(result.kept[edge->from], result.kept[edge->to]));
    result.reduced.add_edge(edge->from, edge->to, matrix);
  }
  return result;
}

Assignment CandidateReduction::expand(const Assignment& reduced_assignment) const {
  Assignment original;
  for (size_t v = 0; v < kept.size(); ++v) original.push_back(kept[v].at(reduced_assignment.at(v)));
  return original;
}

size_t CandidateReduction::removed_candidates() const {
  size_t removed = 0;
  for (size_t v = 0; v < kept.size(); ++v)
    removed += static_cast<size_t>(original_candidates[v]) - kept[v].size();
  return removed;
}

}  // namespace layoutopt::solvers
