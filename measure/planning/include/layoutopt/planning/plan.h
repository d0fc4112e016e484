#pragma once
// Plan: the layout decisions for one model, as a file a later compile step reads. Per node
// the chosen kernel (label for people, a KernelChoice with the config / schedule for the
// compiler, written as the JSON string "payload": kernel_choice.h), the layouts it reads and
// writes (layout::Layout in memory, spelled only by to_json / plan_from_json) and its predicted time; the transforms to insert between nodes; and where the numbers
// came from (cost source, solver, target).
//
//   {"format": "layoutopt-plan", "version": 1, "model": "resnet-50", "graph": "9f3c...",
//    "target": "llvm -mcpu=znver5 -num-cores=2", "costs": "measured", "solver": "dp",
//    "predicted_ms": 14.03, "kernel_ms": 13.2, "transform_ms": 0.83,
//    "nodes": [{"name": "conv1", "op": "conv2d", "workload": "conv2d x[1,3,224,224] ...",
//               "label": "tile_ic=1 tile_oc=16 ...", "payload": "{...}",
//               "inputs": ["NCHW"], "output": "NCHW16c", "ms": 0.41}, ...],
//    "transforms": [{"value": "conv1_out", "from": "NCHW16c", "to": "NCHW8c", "ms": 0.012}]}
//
// A plan is made for the graph after graph::prepare_for_inference; validate_plan checks that
// a graph is the one a plan was made for before anything uses it: the same node count,
// names, ops and workloads, and the same wiring ("graph": graph/fingerprint.h).

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/op_kind.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/planning/kernel_choice.h"
#include "layoutopt/planning/layout_problem.h"
#include "layoutopt/planning/plan_origin.h"

namespace layoutopt::planning {

/// A plan file that cannot be read, or a plan that does not fit a graph.
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlanNode {
  std::string name;
  graph::OpKind op = graph::OpKind::conv2d;  ///< spelled (graph::to_string) only by to_json / plan_from_json
  std::string workload;  ///< graph::Workload::signature() for conv2d / dense, else empty
  std::string label;
  KernelChoice kernel;   ///< tuned config, flexible kernel schedule, ... (the file's "payload")
  std::vector<layout::Layout> inputs;  ///< layout per activation input
  layout::Layout output;
  double ms = 0.0;
};

struct PlanTransform {
  std::string value;  ///< name of the converted tensor
  layout::Layout from, to;
  double ms = 0.0;
};

struct Plan {
  std::string model;
  std::string target;
  CostKind costs = CostKind::measured;
  SolverChoice solver = SolverChoice::dp;  ///< the solver that produced the assignment: dp or pbqp
  double predicted_ms = 0.0;  ///< kernels plus transforms: the solver's objective
  std::vector<PlanNode> nodes;  ///< in graph node order
  std::vector<PlanTransform> transforms;
  /// graph::structure_fingerprint of the graph the plan was made for; empty in plans written
  /// before plans recorded it, which are checked by node names, ops and workloads only.
  std::string graph_fingerprint;

  [[nodiscard]] double kernel_ms() const;
  [[nodiscard]] double transform_ms() const;
};

/// The plan of a decoded assignment of `graph`'s layout problem.
[[nodiscard]] Plan make_plan(const graph::Graph& graph, const LayoutAssignment& assignment, const PlanOrigin& origin);

/// Fields in the documented order (format and version first), for people reading the file.
[[nodiscard]] nlohmann::ordered_json to_json(const Plan& plan);
/// Throws PlanError for a document that is not a version-1 layoutopt plan, with costs or a
/// solver it does not spell (plan_origin.h), or a node whose op no operator has, whose payload
/// is not a kernel choice (kernel_choice.h) or whose layouts do not parse, naming the node or
/// transform.
[[nodiscard]] Plan plan_from_json(const nlohmann::json& document);
/// Writes the file; refusing to replace an existing one is the caller's decision.
void save_plan(const Plan& plan, const std::filesystem::path& path);
/// Throws PlanError naming the file when it is missing, not JSON or not a plan.
[[nodiscard]] Plan load_plan(const std::filesystem::path& path);

/// Throws PlanError saying what differs when `graph` is not the graph `plan` was made for:
/// another node count, a node name the plan does not know, another operator, or a conv /
/// dense whose workload changed.
void validate_plan(const Plan& plan, const graph::Graph& graph);

/// Whether two plans compile to the same network: every node runs the same kernel (KernelChoice)
/// on the same layouts, and the same transforms are inserted. Predicted times, solver and
/// cost labels may differ: two rows of `optimize` with the same schedule differ only by
/// the noise of their timings.
[[nodiscard]] bool same_schedule(const Plan& a, const Plan& b);

/// Graph nodes that read `transform`'s converted tensor: the readers of the value whose
/// planned input layout is the transform's destination. Requires a validated plan.
[[nodiscard]] std::vector<graph::NodeId> transform_readers(const Plan& plan, const graph::Graph& graph,
                                                           const PlanTransform& transform);

}  // namespace layoutopt::planning
