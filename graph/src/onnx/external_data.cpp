#include "external_data.h"

#include <fstream>
#include <optional>
#include <string>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

namespace {

struct ExternalLocation {
  std::string file;
  std::optional<uint64_t> offset, length;
};

[[noreturn]] void fail(const pb::TensorProto& tensor, const std::string& what) {
  throw GraphError("tensor '" + tensor.name() + "': " + what);
}

uint64_t read_number(const pb::TensorProto& tensor, const std::string& key, const std::string& text) {
  try {
    size_t used = 0;
    const unsigned long long value = std::stoull(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
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

/// `file` inside `directory`: a model may only point at files beside or below it, as ONNX
/// Runtime also requires, so a downloaded model cannot make us read arbitrary files.
std::filesystem::path resolve(const pb::TensorProto& tensor, const std::filesystem::path& directory,
                              const std::string& file) {
  const std::filesystem::path relative(file);
  if (relative.is_absolute()) fail(tensor, "external data location '" + file + "' is an absolute path");
  for (const auto& part : relative)
    if (part == "..") fail(tensor, "external data location '" + file + "' leaves the model's directory");
  return directory / relative;
}

std::string read_bytes(const pb::TensorProto& tensor, const std::filesystem::path& path, const ExternalLocation& where) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) fail(tensor, "cannot open its external data file '" + path.string() + "'");
  stream.seekg(0, std::ios::end);
  const auto size = static_cast<uint64_t>(stream.tellg());
  const uint64_t offset = where.offset.value_or(0);
  if (offset > size) fail(tensor, "external data offset " + std::to_string(offset) + " is past the end of '" + path.string() + "'");
  const uint64_t length = where.length.value_or(size - offset);
  if (length > size - offset)
    fail(tensor, "external data of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                     " does not fit in '" + path.string() + "' (" + std::to_string(size) + " bytes)");
  std::string bytes(length, '\0');
  stream.seekg(static_cast<std::streamoff>(offset));
  stream.read(bytes.data(), static_cast<std::streamsize>(length));
  if (!stream) fail(tensor, "cannot read its external data from '" + path.string() + "'");
  return bytes;
}

}  // namespace

void load_external_data(pb::GraphProto& graph, const std::filesystem::path& directory) {
  for (pb::TensorProto& tensor : *graph.mutable_initializer()) {
    if (tensor.data_location() != pb::TensorProto::EXTERNAL) continue;
    const ExternalLocation where = read_location(tensor);
    *tensor.mutable_raw_data() = read_bytes(tensor, resolve(tensor, directory, where.file), where);
    tensor.clear_external_data();
    tensor.set_data_location(pb::TensorProto::DEFAULT);
  }
}

}  // namespace layoutopt::graph::onnx
