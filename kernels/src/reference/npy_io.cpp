#include "layoutopt/kernels/reference/npy_io.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

namespace layoutopt::kernels::reference {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw NpyError("'" + path.string() + "' " + what);
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot be opened");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

uint32_t little_endian(const std::string& bytes, size_t at, size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i) value |= uint32_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  return value;
}

/// The value of `key` in the header dict, e.g. "'<f4'" or "(1, 3, 224, 224)".
std::string header_field(const std::filesystem::path& path, const std::string& header, const std::string& key,
                         const std::string& pattern) {
  const std::regex field("['\"]" + key + "['\"]\\s*:\\s*(" + pattern + ")");
  std::smatch match;
  if (!std::regex_search(header, match, field)) fail(path, "has no readable '" + key + "' in its header: " + header);
  return match[1].str();
}

std::vector<int64_t> parse_shape(const std::filesystem::path& path, const std::string& text) {
  std::vector<int64_t> shape;
  const std::regex number("\\d+");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    shape.push_back(std::stoll(it->str()));
    if (shape.back() <= 0) fail(path, "has an empty dimension in shape " + text);
  }
  return shape;
}

}  // namespace

HostTensor load_npy(const std::filesystem::path& path) {
  static_assert(std::endian::native == std::endian::little, "npy I/O assumes a little-endian host");
  const std::string bytes = read_all(path);
  if (bytes.size() < kMagicSize + 4 || bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    fail(path, "is not a NumPy .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[kMagicSize]);
  if (major < 1 || major > 3) fail(path, "has unsupported .npy format version " + std::to_string(major));
  const size_t length_width = major == 1 ? 2 : 4;
  const size_t header_start = kMagicSize + 2 + length_width;
  if (bytes.size() < header_start) fail(path, "is truncated inside its header");
  const size_t header_length = little_endian(bytes, kMagicSize + 2, length_width);
  if (bytes.size() < header_start + header_length) fail(path, "is truncated inside its header");
  const std::string header = bytes.substr(header_start, header_length);

  const std::string dtype = header_field(path, header, "descr", "'[^']*'|\"[^\"]*\"");
  const bool f4 = dtype.find("<f4") != std::string::npos;
  const bool f8 = dtype.find("<f8") != std::string::npos;
  if (!f4 && !f8) fail(path, "holds dtype " + dtype + "; layoutopt reads float32 ('<f4') or float64 ('<f8')");
  if (header_field(path, header, "fortran_order", "True|False") == "True")
    fail(path, "is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  HostTensor tensor(parse_shape(path, header_field(path, header, "shape", "\\([^)]*\\)")));

  const size_t element = f4 ? 4 : 8;
  const size_t data_start = header_start + header_length;
  const size_t expected = static_cast<size_t>(tensor.size()) * element;
  if (bytes.size() - data_start != expected)
    fail(path, "holds " + std::to_string(bytes.size() - data_start) + " data bytes, its shape needs " +
                   std::to_string(expected));
  if (f4) {
    std::memcpy(tensor.data.data(), bytes.data() + data_start, expected);
  } else {
    for (size_t i = 0; i < tensor.data.size(); ++i) {
      double value = 0;
      std::memcpy(&value, bytes.data() + data_start + i * 8, 8);
      tensor.data[i] = static_cast<float>(value);
    }
  }
  return tensor;
}

void save_npy(const HostTensor& tensor, const std::filesystem::path& path) {
  std::string shape;
  for (int64_t extent : tensor.shape) shape += std::to_string(extent) + ", ";
  if (tensor.shape.size() > 1) shape.erase(shape.size() - 2);  // (1, 1000) but (5,)
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Magic, version, length and header padded with spaces to a multiple of 64, then '\n'.
  const size_t unpadded = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot be written");
  out.write(kMagic, kMagicSize);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const char length[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(length, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(tensor.data.data()), static_cast<std::streamsize>(tensor.data.size() * sizeof(float)));
  if (!out) fail(path, "could not be written completely");
}

}  // namespace layoutopt::kernels::reference
