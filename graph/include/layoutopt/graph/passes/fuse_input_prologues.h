#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Moves a batch norm (with the activation fused into it) into the 1x1 conv that reads it:
///   y = BatchNorm(x) + relu -> conv2d(y)      becomes      conv2d(x, prologue relu)
/// when the batch norm's parameters are constants, its activation is none, relu or relu6,
/// and the conv is 1x1 without padding, has groups 1, no input scale and no prologue yet,
/// reads y as its data input alone and is y's only reader, and y is not a graph output. The
/// conv then computes conv(activation(x * scale[c] + shift[c])) with the batch norm folded
/// into scale and shift (Conv2d::prologue), and the batch norm is removed. Returns how many
/// batch norms were moved.
///
/// Why: DenseNet normalizes the whole concatenation before each layer's 1x1 conv, with that
/// layer's own parameters, so no producer can write the normalized tensor for all its
/// readers; as a node of its own each batch norm writes and re-reads the block's widest
/// tensor (98 such passes, 15% of densenet-201's run). The conv instead transforms each
/// input element as it stages its tile's inputs. Only piecewise-linear activations: the
/// conv transforms an element once per output tile that reads it, cheap for these and not
/// for an exp. 1x1 unpadded convs only: a padded conv would have to keep its padding zero
/// after the transform, which a 1x1 conv never reads.
int fuse_input_prologues(Graph& graph);

}  // namespace layoutopt::graph
