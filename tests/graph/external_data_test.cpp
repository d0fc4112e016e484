// External data as an untrusted model names it: real files, links, folders and FIFOs in a
// scratch folder, imported through import_onnx as the CLI does. Only a regular file inside
// the model's folder may supply a tensor's bytes, exactly its byte size of them.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "external_data.h"
#include "onnx_test_models.h"
#include "support/scratch_folder.h"

using namespace onnx_test;
namespace fs = std::filesystem;
using layoutopt::testing::ScratchFolder;

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

const std::vector<float> kWeights{1.5f, -2.0f, 0.25f, 4.0f, 3.0f, -1.0f};  // w[3, 2]: 24 bytes
const std::string kPrefix = "8 bytes!";                                  // the weights start at offset 8

std::string weight_bytes() { return {reinterpret_cast<const char*>(kWeights.data()), kWeights.size() * sizeof(float)}; }

void write_file(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

/// `kPrefix` then the weights: what the entries {offset 8, length 24} describe.
void write_weights(const fs::path& path) { write_file(path, kPrefix + weight_bytes()); }

Entries at(const std::string& location, const std::string& offset = "8", const std::string& length = "24") {
  return {{"location", location}, {"offset", offset}, {"length", length}};
}

void make_external(::onnx::TensorProto& tensor, const Entries& entries) {
  tensor.set_data_location(::onnx::TensorProto::EXTERNAL);
  tensor.clear_float_data();
  for (const auto& [key, value] : entries) {
    auto* entry = tensor.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  }
}

/// y = x w^T with w[3, 2] an initializer (or a Constant node's value) stored as `entries` say.
::onnx::ModelProto gemm_model(const Entries& entries, bool as_constant = false) {
  ModelBuilder builder;
  builder.input("x", {1, 2}).output("y");
  if (as_constant) builder.constant("w", 0.0f);
  else builder.weight("w", {3, 2}, kWeights);
  set_int(builder.node("Gemm", "fc", {"x", "w"}, "y"), "transB", 1);
  ::onnx::ModelProto model;
  REQUIRE(model.ParseFromString(builder.bytes()));
  ::onnx::TensorProto& w = as_constant ? *model.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_t()
                                       : *model.mutable_graph()->mutable_initializer(0);
  if (as_constant) {
    w.add_dims(3);
    w.add_dims(2);
  }
  make_external(w, entries);
  return model;
}

fs::path write_model(const ScratchFolder& folder, const ::onnx::ModelProto& model) {
  const fs::path path = folder.path() / "model.onnx";
  write_file(path, model.SerializeAsString());
  return path;
}

std::vector<float> imported_weights(const fs::path& model) {
  const Graph g = import::import_onnx(model).graph;
  const auto values = g.value(*g.find_value("w")).weights->values();
  return {values.begin(), values.end()};
}

std::string import_error(const fs::path& model) {
  return error_of([&] { (void)import::import_onnx(model); });
}

/// The import's error, run in a child process that SIGALRM ends after 5 s: an import that
/// blocks (opening a FIFO) fails the test instead of hanging the suite.
std::string import_error_within_5s(const fs::path& model) {
  int channel[2];
  REQUIRE(::pipe(channel) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(channel[0]);
    ::alarm(5);
    const std::string message = import_error(model);
    (void)!::write(channel[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(channel[1]);
  std::string message;
  char buffer[512];
  for (ssize_t got; (got = ::read(channel[0], buffer, sizeof buffer)) > 0;) message.append(buffer, static_cast<size_t>(got));
  ::close(channel[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? message : "<the import blocked or crashed>";
}

/// The error of loading a lone tensor, w[dims] of `type`, from `folder`.
std::string tensor_error(const ScratchFolder& folder, int32_t type, const std::vector<int64_t>& dims, const Entries& entries) {
  ::onnx::TensorProto tensor;
  tensor.set_name("w");
  tensor.set_data_type(type);
  for (int64_t dim : dims) tensor.add_dims(dim);
  make_external(tensor, entries);
  return error_of([&] { import::load_external_tensor(tensor, folder.path()); });
}

#define CHECK_SAYS(message, expected) CHECK_MESSAGE((message).find(expected) != std::string::npos, (message))

}  // namespace

TEST_CASE("external data: a regular file inside the folder, or a link to one inside it, supplies the weights") {
  const ScratchFolder folder("external_inside");
  fs::create_directories(folder.path() / "weights");
  write_weights(folder.path() / "weights" / "w.bin");
  CHECK(imported_weights(write_model(folder, gemm_model(at("weights/w.bin")))) == kWeights);

  fs::create_symlink("weights/w.bin", folder.path() / "link.bin");
  CHECK(imported_weights(write_model(folder, gemm_model(at("link.bin")))) == kWeights);
}

TEST_CASE("external data: without a length exactly the tensor's bytes are read, however large the file") {
  const ScratchFolder folder("external_no_length");
  const fs::path data = folder.path() / "w.bin";
  write_weights(data);
  std::ofstream(data, std::ios::binary | std::ios::app) << "bytes after the tensor, which must not be taken";
  fs::resize_file(data, fs::file_size(data) + (int64_t{64} << 20));  // 64 MB more (sparse)
  CHECK(imported_weights(write_model(folder, gemm_model({{"location", "w.bin"}, {"offset", "8"}}))) == kWeights);

  write_file(data, weight_bytes());  // no offset either: from the start
  CHECK(imported_weights(write_model(folder, gemm_model({{"location", "w.bin"}}))) == kWeights);
}

TEST_CASE("external data: a symbolic link to a file outside the model's folder is refused") {
  const ScratchFolder folder("external_link_out"), elsewhere("external_elsewhere");
  write_weights(elsewhere.path() / "secret.bin");
  fs::create_symlink(elsewhere.path() / "secret.bin", folder.path() / "w.bin");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin")))),
             "tensor 'w': external data location 'w.bin' is a symbolic link to '" +
                 fs::canonical(elsewhere.path() / "secret.bin").string() + "' outside the model's folder '" +
                 fs::canonical(folder.path()).string() + "'");

  const fs::path system_file = fs::exists("/etc/hostname") ? "/etc/hostname" : "/etc/passwd";
  fs::create_symlink(system_file, folder.path() / "etc.bin");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("etc.bin", "0")))),
             "external data location 'etc.bin' is a symbolic link to '" + fs::canonical(system_file).string() + "' outside");
}

TEST_CASE("external data: a path through a linked folder that leads outside is refused") {
  const ScratchFolder folder("external_linked_folder"), elsewhere("external_elsewhere_folder");
  write_weights(elsewhere.path() / "w.bin");
  fs::create_directory_symlink(elsewhere.path(), folder.path() / "sub");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("sub/w.bin")))),
             "external data location 'sub/w.bin' resolves through a symbolic link to '" +
                 fs::canonical(elsewhere.path() / "w.bin").string() + "' outside the model's folder");
}

TEST_CASE("external data: absolute paths, '..', NUL, missing files and dangling links are refused by name") {
  const ScratchFolder folder("external_spelling");
  write_weights(folder.path() / "w.bin");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at((folder.path() / "w.bin").string())))), "is an absolute path");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("./../w.bin")))), "'./../w.bin' leaves the model's directory");
  // Through system calls "w.bin\0x" would be "w.bin": the file checked must be the file read.
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at(std::string("w.bin\0x", 7))))), "location 'w.bin\\x00x' contains a NUL character");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("none.bin")))),
             "external data location 'none.bin' does not exist in the model's folder");
  fs::create_symlink("gone.bin", folder.path() / "dangling.bin");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("dangling.bin")))),
             "'dangling.bin' is a symbolic link to 'gone.bin', which does not exist");
}

TEST_CASE("external data: a folder is refused, also the model's own") {
  const ScratchFolder folder("external_folder");
  fs::create_directories(folder.path() / "weights");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("weights")))),
             "external data location 'weights' is a folder, not a regular file");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at(".")))), "external data location '.' is a folder, not a regular file");
}

TEST_CASE("external data: a FIFO is refused at once, not opened (also behind a link)") {
  const ScratchFolder folder("external_fifo");
  REQUIRE(::mkfifo((folder.path() / "w.fifo").c_str(), 0600) == 0);
  fs::create_symlink("w.fifo", folder.path() / "w.bin");
  CHECK_SAYS(import_error_within_5s(write_model(folder, gemm_model(at("w.fifo")))),
             "external data location 'w.fifo' is a FIFO, not a regular file");
  CHECK_SAYS(import_error_within_5s(write_model(folder, gemm_model(at("w.bin")))),
             "external data location 'w.bin' is a FIFO, not a regular file");
}

TEST_CASE("external data: offset and length must describe the tensor's bytes within the file") {
  const ScratchFolder folder("external_span");
  write_weights(folder.path() / "w.bin");  // 32 bytes
  write_file(folder.path() / "short.bin", "10 bytes!!");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("short.bin", "0")))),
             "tensor 'w': external data of 24 bytes at offset 0 does not fit in 'short.bin' (10 bytes)");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin", "9")))),
             "external data of 24 bytes at offset 9 does not fit in 'w.bin' (32 bytes)");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin", "100")))),
             "tensor 'w': external data offset 100 is past the end of 'w.bin' (32 bytes)");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin", "8", "20")))),
             "tensor 'w': external data length 20 differs from the 24 bytes of its shape [3, 2] of FLOAT");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin", "8", "32")))), "external data length 32 differs");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("w.bin", "-1")))), "external data 'offset' is '-1', not a byte count");
}

TEST_CASE("external data: a tensor whose byte size cannot be computed is refused before any file is looked at") {
  const ScratchFolder folder("external_byte_size");  // empty: the size is checked first
  const Entries entries = at("none.bin", "0", "0");
  CHECK_SAYS(tensor_error(folder, ::onnx::TensorProto::STRING, {2}, entries), "tensor 'w': element type STRING has no fixed size");
  CHECK_SAYS(tensor_error(folder, 99, {2}, entries), "tensor 'w': element type 99 has no fixed size");
  CHECK_SAYS(tensor_error(folder, ::onnx::TensorProto::FLOAT, {-1, 2}, entries), "tensor 'w': negative dimension in shape [-1, 2]");
  CHECK_SAYS(tensor_error(folder, ::onnx::TensorProto::FLOAT, {int64_t{1} << 31, int64_t{1} << 31}, entries),
             "tensor 'w': shape [2147483648, 2147483648] is too large");  // 2^62 elements x 4 bytes
}

TEST_CASE("external data: an offset near 2^64 does not wrap around") {
  const ScratchFolder folder("external_overflow");
  write_weights(folder.path() / "w.bin");
  const std::string max = std::to_string(std::numeric_limits<uint64_t>::max());
  CHECK_SAYS(tensor_error(folder, ::onnx::TensorProto::FLOAT, {3, 2}, at("w.bin", max)), "is past the end of 'w.bin' (32 bytes)");
  CHECK_SAYS(tensor_error(folder, ::onnx::TensorProto::FLOAT, {3, 2}, at("w.bin", max + "0")), "not a byte count");
}

TEST_CASE("external data: a Constant node's tensor follows the same rules") {
  const ScratchFolder folder("external_constant"), elsewhere("external_constant_elsewhere");
  write_weights(folder.path() / "w.bin");
  CHECK(imported_weights(write_model(folder, gemm_model(at("w.bin"), /*as_constant=*/true))) == kWeights);

  write_weights(elsewhere.path() / "w.bin");
  fs::create_symlink(elsewhere.path() / "w.bin", folder.path() / "out.bin");
  CHECK_SAYS(import_error(write_model(folder, gemm_model(at("out.bin"), true))),
             "node 'w' (Constant), attribute 'value': tensor '': external data location 'out.bin' is a symbolic link to");
  CHECK(imported_weights(write_model(folder, gemm_model({{"location", "w.bin"}, {"offset", "8"}}, true))) == kWeights);
  CHECK_SAYS(error_of([&] { (void)import::import_onnx_bytes(gemm_model(at("w.bin"), true).SerializeAsString(), "c.onnx"); }),
             "its data is in an external file, which only a model imported from its path can read");
}
