#include "external_data.h"

#include <cstdint>
#include <optional>
#include <string>

#include "layoutopt/graph/error.h"
#include "model_folder.h"
#include "node_naming.h"
#include "tensor_reader.h"

namespace layoutopt::graph::onnx {

namespace {

struct ExternalLocation {
  std::string file;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
};

[[noreturn]] void fail(const pb::TensorProto& tensor, const std::string& what) {
  throw GraphError("tensor '" + tensor.name() + "': " + what);
}

/// The location as messages quote it: control characters (a NUL would end the message's
/// C string) as \xNN.
std::string quoted(const std::string& location) {
  std::string text = "'";
  for (const char c : location) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      text += c;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    text += {'\\', 'x', kHex[(c >> 4) & 0xf], kHex[c & 0xf]};
  }
  return text + "'";
}

/// Digits only: std::stoull alone would take " 8", "+8" and "-1" (as 2^64 - 1).
uint64_t read_number(const pb::TensorProto& tensor, const std::string& key, const std::string& text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  try {
    if (digits) return std::stoull(text);
  } catch (const std::out_of_range&) {
  }
  fail(tensor, "external data '" + key + "' is '" + text + "', not a byte count");
}

ExternalLocation read_location(const pb::TensorProto& tensor) {
  ExternalLocation where;
  for (const pb::StringStringEntryProto& entry : tensor.external_data()) {
    if (entry.key() == "location") where.file = entry.value();
    else if (entry.key() == "offset") where.offset = read_number(tensor, entry.key(), entry.value());
    else if (entry.key() == "length") where.length = read_number(tensor, entry.key(), entry.value());
  }
  if (where.file.empty()) fail(tensor, "external data without a location");
  return where;
}

/// The bytes to read: always the tensor's own size, so a file cannot hand over more (or
/// fewer) bytes than the shape holds, and nothing is read before that size is known.
uint64_t length_to_read(const pb::TensorProto& tensor, const ExternalLocation& where) {
  const uint64_t bytes = tensor_byte_size(tensor);
  if (where.length && *where.length != bytes)
    fail(tensor, "external data length " + std::to_string(*where.length) + " differs from the " + std::to_string(bytes) +
                     " bytes of its shape " + to_string(tensor_shape(tensor)) + " of " +
                     pb::TensorProto::DataType_Name(tensor.data_type()));
  return bytes;
}

void require_within(const pb::TensorProto& tensor, const ExternalLocation& where, uint64_t length, uint64_t size) {
  const std::string file = quoted(where.file) + " (" + std::to_string(size) + " bytes)";
  if (where.offset > size) fail(tensor, "external data offset " + std::to_string(where.offset) + " is past the end of " + file);
  uint64_t end = 0;
  if (__builtin_add_overflow(where.offset, length, &end) || end > size)
    fail(tensor, "external data of " + std::to_string(length) + " bytes at offset " + std::to_string(where.offset) +
                     " does not fit in " + file);
}

}  // namespace

void load_external_tensor(pb::TensorProto& tensor, const std::filesystem::path& folder) {
  if (tensor.data_location() != pb::TensorProto::EXTERNAL) return;
  const ExternalLocation where = read_location(tensor);
  const uint64_t length = length_to_read(tensor, where);
  const ReadOnlyFile file =
      ModelFolder(folder).open(where.file, "tensor '" + tensor.name() + "': external data location " + quoted(where.file));
  require_within(tensor, where, length, file.size());
  *tensor.mutable_raw_data() = file.read(where.offset, length);
  tensor.clear_external_data();
  tensor.set_data_location(pb::TensorProto::DEFAULT);
}

void load_external_data(pb::GraphProto& graph, const std::filesystem::path& folder) {
  for (pb::TensorProto& tensor : *graph.mutable_initializer()) load_external_tensor(tensor, folder);
  for (int i = 0; i < graph.node_size(); ++i) {
    pb::NodeProto& node = *graph.mutable_node(i);
    for (pb::AttributeProto& attribute : *node.mutable_attribute()) {
      if (!attribute.has_t()) continue;
      // Attribute tensors are often unnamed: the node and attribute say which one it is.
      try {
        load_external_tensor(*attribute.mutable_t(), folder);
      } catch (const GraphError& error) {
        throw GraphError(node_label(node, static_cast<size_t>(i)) + ", attribute '" + attribute.name() + "': " + error.what());
      }
    }
  }
}

}  // namespace layoutopt::graph::onnx
