#pragma once
// `mpirun -n N layoutopt tune|optimize|bench-transforms ...` as one library call each. Every rank loads the same model and
// extracts the same tasks; before anything is timed the ranks send rank 0 their host facts
// (distributed/host_facts.h) and task list, and all refuse to start when a host or the model
// differs, naming the odd rank. Rank 0 then runs the one tuning session (search, task
// scheduler, the record log) with a measurement farm: each config goes to the next idle
// measurer, rank 0's own worker thread or another rank, the search proposing the next batch
// while the last configs of one are measured (and only while rank 0's own worker is idle), and
// every result is appended to rank 0's log as it arrives. The other ranks only measure what
// they are sent. `optimize` spreads its tuning, default configs, layout variants and the passes
// of its transforms alike; planning, confirmation, calibration and the comparison run on rank
// 0 alone. `bench-transforms` spreads its passes: each pass of each key goes to the next idle
// rank, and every entry reaches rank 0's table as its pass arrives.
//
// A rank that dies: rank 0 hears a heartbeat from a measuring rank every second; one silent
// for `heartbeat_timeout_s` is given up and its config measured by another. Open MPI 4.1 ends
// the whole job when one rank dies unless mpirun is given --enable-recovery; with it, rank 0
// finishes the run with the ranks left and nothing reported before the death is lost.

#include <optional>

#include "layoutopt/distributed/host_facts.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/pipeline/extend_transform_table.h"
#include "layoutopt/pipeline/optimize.h"
#include "layoutopt/pipeline/tune_model.h"

namespace layoutopt::mpi {

struct ClusterOptions {
  distributed::HostRules hosts;
  double heartbeat_timeout_s = 30;  ///< a measuring rank silent this long is given up
};

/// True when this process was started by mpirun (Open MPI's environment): only then is MPI
/// initialized, so the single-machine tool never touches MPI.
[[nodiscard]] bool launched_by_mpirun();

/// Tunes `graph` over every rank of MPI_COMM_WORLD. Returns rank 0's report; nullopt on the
/// other ranks. Throws std::runtime_error on every rank when the hosts or models differ.
[[nodiscard]] std::optional<pipeline::TuneReport> tune_model_mpi(const graph::Graph& graph,
                                                                 const pipeline::TuneRequest& request,
                                                                 const ClusterOptions& options);

/// Runs the main job with its measurements spread over every rank. Returns rank 0's report;
/// nullopt on the other ranks. Throws as tune_model_mpi does.
[[nodiscard]] std::optional<pipeline::OptimizeReport> optimize_model_mpi(const graph::Graph& graph,
                                                                         const pipeline::OptimizeRequest& request,
                                                                         const ClusterOptions& options);

/// Extends the transform table with every rank timing passes. Returns rank 0's report;
/// nullopt on the other ranks. Throws as tune_model_mpi does.
[[nodiscard]] std::optional<pipeline::TransformTableReport> extend_transform_table_mpi(
    const graph::Graph& graph, const pipeline::TransformTableRequest& request, const ClusterOptions& options);

}  // namespace layoutopt::mpi
