#pragma once
// Tensors stored outside the .onnx file. Exporters write a model's weights to separate files
// once the model passes protobuf's 2 GB limit (torch.onnx.export does so by itself): each
// such tensor names a file next to the model ('location'), and optionally where its bytes
// start ('offset') and how many there are ('length').
//
// The rules (docs/onnx.md): the location must be a regular file inside the model's folder
// (model_folder.h); the tensor's byte size (dims x element size) is what is read, so a
// declared length must equal it and a missing one means it, never "the rest of the file";
// offset + byte size must lie within the file. All is checked before a byte is read.

#include <filesystem>

#include "proto.h"

namespace layoutopt::graph::onnx {

/// Reads every external tensor of `graph` into its raw_data, from files in `folder`: the
/// initializers and the tensors of node attributes (Constant's and ConstantOfShape's
/// 'value'), by the same rules. Throws GraphError naming the tensor (and the node for an
/// attribute), its location and the broken rule.
void load_external_data(pb::GraphProto& graph, const std::filesystem::path& folder);

/// One tensor with data_location EXTERNAL: its bytes into raw_data, the external entries
/// dropped, as load_external_data does for each.
void load_external_tensor(pb::TensorProto& tensor, const std::filesystem::path& folder);

}  // namespace layoutopt::graph::onnx
