#include "dp/elimination_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>

#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers::dp {

namespace {

class EliminationGraph {
 public:
  explicit EliminationGraph(const EliminationStructure& problem)
      : adjacent_(problem.candidates.size()), size_(problem.candidates) {
    for (const auto& [u, v] : problem.edges) connect(u, v);
  }

  [[nodiscard]] const std::vector<int>& neighbors(int v) const { return adjacent_[v]; }

  [[nodiscard]] long fill_in(int v) const {
    const std::vector<int>& around = adjacent_[v];
    long missing = 0;
    for (size_t a = 0; a < around.size(); ++a)
      for (size_t b = a + 1; b < around.size(); ++b) missing += !adjacent(around[a], around[b]);
    return missing;
  }

  /// Entries of the table that eliminating v creates (one per joint choice of neighbours).
  [[nodiscard]] double table_entries(int v) const {
    double entries = 1;
    for (int w : adjacent_[v]) entries *= size_[w];
    return entries;
  }

  void eliminate(int v) {
    const std::vector<int> around = adjacent_[v];
    for (size_t a = 0; a < around.size(); ++a)
      for (size_t b = a + 1; b < around.size(); ++b) connect(around[a], around[b]);
    for (int w : around) std::erase(adjacent_[w], v);
    adjacent_[v].clear();
  }

 private:
  [[nodiscard]] bool adjacent(int a, int b) const { return std::ranges::binary_search(adjacent_[a], b); }

  void connect(int a, int b) {
    if (adjacent(a, b)) return;
    adjacent_[a].insert(std::ranges::lower_bound(adjacent_[a], b), b);
    adjacent_[b].insert(std::ranges::lower_bound(adjacent_[b], a), a);
  }

  std::vector<std::vector<int>> adjacent_;  // sorted
  std::vector<int> size_;
};

using Score = std::pair<double, double>;

Score score_of(const EliminationGraph& graph, int v, OrderHeuristic heuristic) {
  const auto fill = static_cast<double>(graph.fill_in(v));
  const double table = graph.table_entries(v);
  return heuristic == OrderHeuristic::min_fill ? Score{fill, table} : Score{table, fill};
}

// What dp holds while it eliminates, in doubles: a message lives from the elimination that
// builds it until the first of its variables is eliminated; back-tracking choices (uint16_t,
// a quarter of a double) accumulate. The problem's own factors are counted as live
// throughout: they are small next to the messages.
class MemoryLedger {
 public:
  MemoryLedger(int nodes, double problem_entries) : live_(problem_entries), messages_of_(nodes) {}

  /// Eliminating v builds a message of `table` entries over `scope`; returns what is held
  /// while it is built (the consumed factors are freed only afterwards).
  double eliminate(int v, const std::vector<int>& scope, double table) {
    choices_ += table * sizeof(uint16_t) / sizeof(double);
    const double held = live_ + table + choices_;
    for (int id : messages_of_[v])
      if (alive_[id]) {
        alive_[id] = 0;
        live_ -= entries_[id];
      }
    if (!scope.empty()) {
      const auto id = static_cast<int>(entries_.size());
      entries_.push_back(table);
      alive_.push_back(1);
      live_ += table;
      for (int w : scope) messages_of_[w].push_back(id);
    }
    return held;
  }

 private:
  double live_;
  double choices_ = 0;
  std::vector<std::vector<int>> messages_of_;  // by variable: messages whose scope has it
  std::vector<double> entries_;                // by message
  std::vector<char> alive_;                    // by message
};

std::string mebibytes(double entries) {
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << entries * sizeof(double) / (1024.0 * 1024.0) << " MiB";
  return text.str();
}

}  // namespace

void refuse(const EliminationPlan& plan, double max_entries) {
  throw SolverError("dp refuses this instance: variable elimination reaches induced width >= " +
                    std::to_string(plan.induced_width) + " with a table of " + mebibytes(plan.peak_table_entries) +
                    " (" + mebibytes(plan.peak_memory_entries) + " held at once), over the memory budget of " +
                    mebibytes(max_entries) + "; use --solver pbqp for graphs of high treewidth");
}

EliminationStructure EliminationStructure::of(const Problem& problem) {
  EliminationStructure structure;
  for (size_t v = 0; v < problem.node_count(); ++v)
    structure.candidates.push_back(problem.candidates(static_cast<int>(v)));
  for (const Edge& edge : problem.edges()) structure.edges.emplace_back(edge.from, edge.to);
  return structure;
}

EliminationPlan plan_elimination(const EliminationStructure& problem, OrderHeuristic heuristic, double max_entries,
                                 double max_work) {
  EliminationGraph graph(problem);
  const auto n = static_cast<int>(problem.candidates.size());
  EliminationPlan plan;
  for (int size : problem.candidates) plan.total_table_entries += size;
  for (const auto& [u, v] : problem.edges)
    plan.total_table_entries += static_cast<double>(problem.candidates[u]) * problem.candidates[v];
  MemoryLedger memory(n, plan.total_table_entries);

  std::vector<Score> score(n);
  std::set<std::pair<Score, int>> queue;
  for (int v = 0; v < n; ++v) queue.emplace(score[v] = score_of(graph, v, heuristic), v);
  std::vector<char> done(n, 0);
  while (!queue.empty()) {
    const int v = queue.begin()->second;
    queue.erase(queue.begin());
    const double table = graph.table_entries(v);
    plan.induced_width = std::max(plan.induced_width, static_cast<int>(graph.neighbors(v).size()));
    plan.total_table_entries += table;
    plan.work += table * problem.candidates[v];
    plan.peak_table_entries = std::max(plan.peak_table_entries, table);
    plan.peak_memory_entries = std::max(plan.peak_memory_entries, memory.eliminate(v, graph.neighbors(v), table));
    if (plan.peak_memory_entries > max_entries || plan.work > max_work) {
      plan.within_budget = false;
      return plan;
    }
    plan.order.push_back(v);
    done[v] = 1;
    // Scores change for v's neighbours and for nodes adjacent to two of them (new fill edges).
    std::vector<int> touched = graph.neighbors(v);
    graph.eliminate(v);
    const size_t direct = touched.size();
    for (size_t k = 0; k < direct; ++k)
      for (int x : graph.neighbors(touched[k])) touched.push_back(x);
    std::ranges::sort(touched);
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (int w : touched) {
      if (done[w]) continue;
      queue.erase({score[w], w});
      queue.emplace(score[w] = score_of(graph, w, heuristic), w);
    }
  }
  return plan;
}

EliminationPlan plan_cheapest_elimination(const EliminationStructure& problem, double max_entries,
                                          double max_work) {
  EliminationPlan fill = plan_elimination(problem, OrderHeuristic::min_fill, max_entries, max_work);
  EliminationPlan degree = plan_elimination(problem, OrderHeuristic::min_degree, max_entries, max_work);
  if (!degree.within_budget) return fill;
  if (!fill.within_budget) return degree;
  return degree.work < fill.work ? degree : fill;
}

}  // namespace layoutopt::solvers::dp
