#pragma once
// Rewrites nodes written for older opsets into the form the converters and fold rules read
// (the newest definition of each operator): values that used to be attributes become
// constant inputs, and Upsample becomes Resize. What the ONNX version converter does for
// a step up, limited to the operators CNNs use and to the direction we need.
//
//   Clip < 11           min, max attributes      -> inputs 1, 2
//   Pad < 11            pads, value attributes   -> inputs 1, 2
//   Slice < 10          starts, ends, axes       -> inputs 1, 2, 3
//   Squeeze, Unsqueeze, Split < 13; ReduceSum < 13; other Reduce* < 18
//                       axes / split attribute   -> input 1
//   Upsample (7-9), Resize 10                    -> Resize 11+ (X, roi, scales), asymmetric
//   Dropout < 12        ratio attribute          (read by the converter as it is)

#include <cstdint>

#include "proto.h"

namespace layoutopt::graph::onnx {

/// Rewrites every node of `graph` imported under default-domain `opset`; new constant
/// inputs become initializers named after the node's first output.
void adapt_to_current_opset(pb::GraphProto& graph, int64_t opset);

}  // namespace layoutopt::graph::onnx
