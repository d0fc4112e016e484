#pragma once
// A roofline-style cost model that stands in for measurements until tuning records and a
// transform table exist (and gives solver research realistic instances of any network):
// compute-bound ops run at a fraction of peak that depends on how well the channel blocks
// fill vector registers; memory-bound ops and transforms move bytes at a fraction of the
// bandwidth that depends on the access pattern. A small deterministic jitter per
// (workload, schedule) mimics the spread real measurements have. Not a measurement: every
// figure it gives is labelled as modelled by the callers.

#include <map>
#include <mutex>
#include <tuple>

#include "layoutopt/planning/cost_source.h"

namespace layoutopt::planning {

struct AnalyticModelParams {
  double peak_gflops = 720.0;     ///< fp32 FMA peak of the machine (layoutopt cpu measures it)
  double bandwidth_gbps = 40.0;   ///< sustained memory bandwidth
  int vector_lanes = 16;          ///< fp32 lanes of the widest vector unit
  int max_conv_candidates = 20;   ///< kept per conv/dense after signature pruning, cheapest first
  double jitter = 0.10;           ///< +- relative spread of modelled kernel times
};

class AnalyticCostModel final : public CostSource {
 public:
  explicit AnalyticCostModel(AnalyticModelParams params = {}) : params_(params) {}

  [[nodiscard]] std::string name() const override { return "analytic model"; }
  [[nodiscard]] std::vector<NodeCandidate> candidates(const graph::Graph& graph, graph::NodeId id) const override;
  [[nodiscard]] double transform_ms(const graph::Shape& shape, const layout::Layout& from,
                                    const layout::Layout& to) const override;

  /// Channel blocks the model (and the kernels) consider for a channel count: the powers of
  /// two up to 64 that divide it, plus 1.
  [[nodiscard]] static std::vector<int64_t> channel_blocks(int64_t channels);

 private:
  [[nodiscard]] std::vector<NodeCandidate> conv_candidates(const graph::Graph& graph, graph::NodeId id) const;
  [[nodiscard]] std::vector<NodeCandidate> dense_candidates(const graph::Graph& graph, graph::NodeId id) const;
  [[nodiscard]] std::vector<NodeCandidate> flexible_candidates(const graph::Graph& graph, graph::NodeId id) const;
  [[nodiscard]] std::vector<NodeCandidate> rigid_candidate(const graph::Graph& graph, graph::NodeId id) const;
  [[nodiscard]] double vector_fill(int64_t block) const;
  [[nodiscard]] double jitter(const std::string& key) const;

  AnalyticModelParams params_;
  mutable std::mutex cache_mutex_;
  mutable std::map<std::tuple<graph::Shape, std::string, std::string>, double> transform_cache_;
};

}  // namespace layoutopt::planning
