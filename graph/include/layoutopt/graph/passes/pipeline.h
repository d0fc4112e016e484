#pragma once
#include <string>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

struct PipelineReport {
  int identities_removed = 0;
  int pads_folded = 0;
  int batch_norms_folded = 0;
  int pools_moved_before_convs = 0;
  int strided_convs_subsampled = 0;
  int pointwise_sums_merged = 0;
  int epilogue_nodes_fused = 0;
  int channel_scales_fused = 0;
  int input_prologues_fused = 0;
  int concats_chained = 0;
  int channel_shuffles_recognized = 0;
  int gated_activations_recognized = 0;
  [[nodiscard]] std::string summary() const;
};

/// The inference preparation every later step expects: remove identities, recognize channel
/// shuffles and gated activations (x * sigmoid(x) as silu, so that it fuses), fold pads into
/// their readers, chain re-concatenations, fold batch norms, move average pools before the
/// 1x1 convs they read, subsample the input of strided 1x1 convs, merge sums of two 1x1
/// convs into one conv over their concatenated inputs, fuse epilogues, fuse channel scales
/// into the 1x1 convs reading them, move the batch norms left into the 1x1 convs reading
/// them, then validate.
PipelineReport prepare_for_inference(Graph& graph);

}  // namespace layoutopt::graph
