#include "layoutopt/graph/passes/pipeline.h"

#include "layoutopt/graph/passes/chain_concats.h"
#include "layoutopt/graph/passes/fold_batch_norm.h"
#include "layoutopt/graph/passes/fold_pads.h"
#include "layoutopt/graph/passes/fuse_channel_scales.h"
#include "layoutopt/graph/passes/fuse_epilogues.h"
#include "layoutopt/graph/passes/fuse_input_prologues.h"
#include "layoutopt/graph/passes/merge_added_pointwise_convs.h"
#include "layoutopt/graph/passes/pool_before_pointwise_conv.h"
#include "layoutopt/graph/passes/recognize_channel_shuffle.h"
#include "layoutopt/graph/passes/recognize_gated_activations.h"
#include "layoutopt/graph/passes/remove_identities.h"
#include "layoutopt/graph/passes/subsample_strided_pointwise_conv.h"
#include "layoutopt/graph/validate.h"

namespace layoutopt::graph {

std::string PipelineReport::summary() const {
  return "removed " + std::to_string(identities_removed) + " identities, folded " + std::to_string(pads_folded) +
         " pads and " + std::to_string(batch_norms_folded) + " batch norms, moved " +
         std::to_string(pools_moved_before_convs) + " average pools before their 1x1 convs, subsampled " +
         std::to_string(strided_convs_subsampled) + " strided 1x1 convs' inputs, merged " +
         std::to_string(pointwise_sums_merged) + " sums of 1x1 convs, fused " +
         std::to_string(epilogue_nodes_fused) + " epilogue nodes and " + std::to_string(channel_scales_fused) +
         " channel scales, moved " + std::to_string(input_prologues_fused) +
         " batch norms into the 1x1 convs reading them, chained " + std::to_string(concats_chained) +
         " concats, recognized " + std::to_string(channel_shuffles_recognized) + " channel shuffles and " +
         std::to_string(gated_activations_recognized) + " gated activations";
}

PipelineReport prepare_for_inference(Graph& graph) {
  PipelineReport report;
  report.identities_removed = remove_identities(graph);
  report.channel_shuffles_recognized = recognize_channel_shuffle(graph);
  report.gated_activations_recognized = recognize_gated_activations(graph);
  report.pads_folded = fold_pads(graph);
  report.concats_chained = chain_concats(graph);
  report.batch_norms_folded = fold_batch_norm(graph);
  // After batch norms fold (a conv -> batch norm -> pool becomes conv -> pool) and before
  // epilogues fuse (a fused activation makes the conv nonlinear).
  report.pools_moved_before_convs = pool_before_pointwise_convs(graph);
  report.strided_convs_subsampled = subsample_before_strided_pointwise_convs(graph);
  // After subsampling (a strided projection is a unit-stride 1x1 conv by then) and before
  // epilogues fuse (the sum would become the second conv's residual).
  report.pointwise_sums_merged = merge_added_pointwise_convs(graph);
  report.epilogue_nodes_fused = fuse_epilogues(graph);
  // After gated activations are recognized: Mul(x, sigmoid(x)) of an [N, C, 1, 1] x (the
  // squeeze-excite branch's own silu) is an activation to fuse, not a channel scale.
  report.channel_scales_fused = fuse_channel_scales(graph);
  // Last: the batch norms left are those no conv before them absorbed, with their
  // activations fused (a batch norm + relu is one node by now).
  report.input_prologues_fused = fuse_input_prologues(graph);
  validate(graph);
  return report;
}

}  // namespace layoutopt::graph
