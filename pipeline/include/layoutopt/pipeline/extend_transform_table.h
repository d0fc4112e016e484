#pragma once
// `layoutopt bench-transforms` as one call: times every layout transform a model's layout
// choices may need (costs/transform_enumeration.h) that the table lacks, and saves the
// table as it grows. Nothing in an existing table is dropped. With a record log, the blocks
// enumerated are those of each task's tuned candidates; without one, vector-friendly blocks.

#include <filesystem>
#include <string>
#include <vector>

#include "layoutopt/costs/transform_key.h"
#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/graph/graph.h"

namespace layoutopt::pipeline {

struct TransformTableRequest {
  std::filesystem::path table;    ///< the JSON table extended (a missing file starts one)
  std::filesystem::path records;  ///< tuning log whose tuned blocks to use; empty: none
  int threads = 1;                ///< OpenMP threads per transform (resolve_threads)
  double min_repeat_ms = 20;      ///< least timed milliseconds per transform
  bool quiet = false;             ///< no progress output
};

struct TransformTableReport {
  std::string target;
  std::vector<costs::TransformKey> keys;  ///< every transform the model may need
  costs::FillResult filled;
  size_t table_entries = 0;  ///< entries in the saved table
};

/// The timing policy of every transform of `request` (the cost policy kernels use).
[[nodiscard]] timing::TimingPolicy transform_policy(const TransformTableRequest& request);

/// Times the missing transforms on this process.
[[nodiscard]] TransformTableReport extend_transform_table(const graph::Graph& graph,
                                                          const TransformTableRequest& request);

/// The same with the passes timed by `timer` (a measurement farm spreading them over hosts).
[[nodiscard]] TransformTableReport extend_transform_table(const graph::Graph& graph,
                                                          const TransformTableRequest& request,
                                                          costs::TransformTimer& timer);

}  // namespace layoutopt::pipeline
