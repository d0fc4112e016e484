// Fuzz target: the external data resolver (graph/src/onnx/external_data.h) on real files. The
// input lays out a model folder in a fresh temporary folder (regular files of some sizes,
// links to files inside and outside, a subfolder, a linked folder, a FIFO) and describes one
// external tensor (location, offset, length, type, dims); load_external_tensor then reads it.
// Rejections are GraphError; an accepted tensor must hold exactly its byte size, taken from
// a regular file inside the folder at the declared offset.
//
// Input: [entry count] then per entry [kind][size lo][size hi], then the tensor: [location
// choice] (a raw string [length][bytes] past the generated names), [offset flag][8 bytes],
// [length flag][8 bytes], [data type], [rank] and per dim [1 byte, or 0xff then 8 bytes].
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "external_data.h"
#include "fuzz_input.h"
#include "layoutopt/graph/error.h"
#include "tensor_reader.h"

namespace {

namespace fs = std::filesystem;
namespace importer = layoutopt::graph::onnx;
using TensorProto = ::onnx::TensorProto;

/// The input read front to back; past its end every read gives zeros.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  uint64_t u64() {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = value << 8 | byte();
    return value;
  }
  std::string text(size_t length) {
    std::string result;
    while (length-- > 0 && at_ < size_) result += static_cast<char>(byte());
    return result;
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

/// A fresh folder under the system temp folder, removed with the object: "model" is the
/// model's folder, "outside" holds what links may escape to.
class TempRoot {
 public:
  TempRoot() {
    std::string pattern = (fs::temp_directory_path() / "layoutopt_fuzz_external_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    root_ = pattern;
    fs::create_directory(model());
    fs::create_directory(outside());
    write(outside() / "secret.bin", 64);
  }
  ~TempRoot() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  TempRoot(const TempRoot&) = delete;
  TempRoot& operator=(const TempRoot&) = delete;
  [[nodiscard]] fs::path model() const { return root_ / "model"; }
  [[nodiscard]] fs::path outside() const { return root_ / "outside"; }

  /// `size` bytes, byte i being i * 7 + the name's length: reads at the wrong offset differ.
  static void write(const fs::path& path, size_t size) {
    std::string bytes(size, '\0');
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7 + path.filename().string().size());
    std::ofstream(path, std::ios::binary) << bytes;
  }

 private:
  fs::path root_;
};

/// Entry i is called "f<i>"; its kind and size come from the input. Returns the names made.
std::vector<std::string> lay_out(Bytes& in, const TempRoot& root) {
  std::vector<std::string> names;
  const int count = in.byte() % 7;
  for (int i = 0; i < count; ++i) {
    const std::string name = "f" + std::to_string(i);
    const fs::path path = root.model() / name;
    const uint8_t kind = in.byte();
    const size_t size = (in.byte() | static_cast<size_t>(in.byte()) << 8) % 4096;
    switch (kind % 7) {
      case 0: TempRoot::write(path, size); break;
      case 1: fs::create_symlink(names.empty() ? "missing" : names[size % names.size()], path); break;  // inside
      case 2: fs::create_symlink(root.outside() / "secret.bin", path); break;
      case 3:
        fs::create_directory(path);
        TempRoot::write(path / "inner.bin", size);
        break;
      case 4: fs::create_directory_symlink(root.outside(), path); break;
      case 5: (void)::mkfifo(path.c_str(), 0600); break;
      default: fs::create_symlink("/etc/hostname", path); break;
    }
    names.push_back(name);
  }
  return names;
}

/// A generated name, a path made of them, or raw text from the input (dictionary material).
std::string location(Bytes& in, const std::vector<std::string>& names) {
  const uint8_t choice = in.byte();
  const std::string name = names.empty() ? "f0" : names[choice % names.size()];
  switch (choice >> 5) {
    case 0:
    case 1:
    case 2: return name;
    case 3: return name + "/inner.bin";
    case 4: return name + "/secret.bin";
    case 5: return "../outside/secret.bin";
    default: return in.text(in.byte() % 64);
  }
}

void add_entry(TensorProto& tensor, const std::string& key, const std::string& value) {
  auto* entry = tensor.add_external_data();
  entry->set_key(key);
  entry->set_value(value);
}

/// Small numbers mostly (so byte sizes can match the files), any 64-bit value sometimes.
std::string number(Bytes& in) {
  const uint8_t flag = in.byte();
  return std::to_string(flag == 0xff ? in.u64() : flag);
}

TensorProto external_tensor(Bytes& in, const std::vector<std::string>& names) {
  TensorProto tensor;
  tensor.set_name("w");
  tensor.set_data_location(TensorProto::EXTERNAL);
  add_entry(tensor, "location", location(in, names));
  if (in.byte() & 1) add_entry(tensor, "offset", number(in));
  if (in.byte() & 1) add_entry(tensor, "length", number(in));
  tensor.set_data_type(in.byte() % 20);  // includes UNDEFINED, STRING and values past BFLOAT16
  for (int rank = in.byte() % 4; rank > 0; --rank) {
    const uint8_t dim = in.byte();
    tensor.add_dims(dim == 0xff ? static_cast<int64_t>(in.u64()) : dim % 16);
  }
  return tensor;
}

void require(bool holds) {
  if (!holds) std::abort();
}

uint64_t declared_offset(const TensorProto& original) {
  for (const auto& entry : original.external_data())
    if (entry.key() == "offset") return std::stoull(entry.value());
  return 0;
}

/// The accepted bytes: exactly the tensor's size, from a regular file strictly inside the
/// folder (links resolved) at the declared offset.
void check_accepted(const TensorProto& loaded, const TensorProto& original, const TempRoot& root) {
  require(loaded.data_location() != TensorProto::EXTERNAL && loaded.external_data_size() == 0);
  require(loaded.raw_data().size() == importer::tensor_byte_size(original));
  const fs::path file = fs::canonical(root.model() / original.external_data(0).value());
  const fs::path folder = fs::canonical(root.model());
  require(fs::is_regular_file(fs::status(file)));
  require(std::mismatch(folder.begin(), folder.end(), file.begin(), file.end()).first == folder.end());
  std::ifstream stream(file, std::ios::binary);
  stream.seekg(static_cast<std::streamoff>(declared_offset(original)));
  std::string expected(loaded.raw_data().size(), '\0');
  stream.read(expected.data(), static_cast<std::streamsize>(expected.size()));
  require(static_cast<bool>(stream) && expected == loaded.raw_data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const TempRoot root;
  const std::vector<std::string> names = lay_out(in, root);
  const TensorProto original = external_tensor(in, names);
  TensorProto tensor = original;
  bool accepted = false;
  layoutopt::fuzz::rejecting_only<layoutopt::graph::GraphError>([&] {
    importer::load_external_tensor(tensor, root.model());
    accepted = true;
  });
  if (accepted) check_accepted(tensor, original, root);
  return 0;
}
