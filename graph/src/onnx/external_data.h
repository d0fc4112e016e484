#pragma once
// Tensors stored outside the .onnx file. Exporters write a model's weights to separate files
// once the model passes protobuf's 2 GB limit (torch.onnx.export does so by itself): each
// such initializer names a file next to the model ('location'), and optionally where its
// bytes start ('offset') and how many there are ('length').

#include <filesystem>

#include "proto.h"

namespace layoutopt::graph::onnx {

/// Reads every external initializer's bytes into its raw_data, from files in `directory`.
/// Throws GraphError naming the tensor for a location outside `directory`, a missing or
/// short file.
void load_external_data(pb::GraphProto& graph, const std::filesystem::path& directory);

}  // namespace layoutopt::graph::onnx
