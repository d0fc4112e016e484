#include "layoutopt/kernels/reference/npy_io.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

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

/// The text of `key`'s value in the header dict, e.g. "'<f4'", "False" or
/// "(1, 3, 224, 224)": from after the colon to the next comma outside parentheses or the
/// closing brace. Scanned by hand, not with std::regex, whose matcher recurses per character
/// and overflows the stack on the long header of a high-rank tensor.
std::string header_field(const std::filesystem::path& path, const std::string& header, const std::string& key) {
  size_t at = std::string::npos;
  for (const char quote : {'\'', '"'})
    if (at == std::string::npos) {
      const std::string quoted = quote + key + quote;
      at = header.find(quoted);
      if (at != std::string::npos) at += quoted.size();
    }
  if (at == std::string::npos) fail(path, "has no '" + key + "' in its header");
  at = header.find_first_not_of(' ', at);
  if (at == std::string::npos || header[at] != ':') fail(path, "has no readable '" + key + "' in its header");
  const size_t begin = header.find_first_not_of(' ', at + 1);
  if (begin == std::string::npos) fail(path, "has no readable '" + key + "' in its header");
  size_t end = begin;
  for (int depth = 0; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (depth == 0 && (c == ',' || c == '}')) break;
  }
  while (end > begin && header[end - 1] == ' ') --end;
  if (end == begin) fail(path, "has an empty '" + key + "' in its header");
  return header.substr(begin, end - begin);
}

/// The extents of a shape tuple such as "(1, 3, 224, 224)", "(5,)" or "()": decimal
/// integers of at least 1, separated by commas, a trailing comma allowed.
std::vector<int64_t> parse_shape(const std::filesystem::path& path, const std::string& text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    fail(path, "has a shape that is not a tuple of positive integers: " + text);
  std::vector<int64_t> shape;
  std::string_view rest = std::string_view(text).substr(1, text.size() - 2);  // inside the parentheses
  const auto skip_spaces = [&] { rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size())); };
  for (skip_spaces(); !rest.empty(); skip_spaces()) {
    int64_t extent = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), extent);
    if (error != std::errc() || extent < 1) fail(path, "has a shape that is not a tuple of positive integers: " + text);
    rest.remove_prefix(static_cast<size_t>(end - rest.data()));
    shape.push_back(extent);
    skip_spaces();
    if (rest.empty()) break;
    if (rest.front() != ',') fail(path, "has a shape that is not a tuple of positive integers: " + text);
    rest.remove_prefix(1);
  }
  return shape;
}

/// Bytes of `element`-sized values for `shape`, or a failure when that does not fit 64 bits.
size_t data_bytes(const std::filesystem::path& path, const std::vector<int64_t>& shape, size_t element) {
  uint64_t bytes = element;
  for (int64_t extent : shape)
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(extent), &bytes))
      fail(path, "has a shape too large to hold in memory");
  return bytes;
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

  const std::string dtype = header_field(path, header, "descr");
  const bool f4 = dtype == "'<f4'" || dtype == "\"<f4\"";
  const bool f8 = dtype == "'<f8'" || dtype == "\"<f8\"";
  if (!f4 && !f8) fail(path, "holds dtype " + dtype + "; layoutopt reads float32 ('<f4') or float64 ('<f8')");
  const std::string fortran_order = header_field(path, header, "fortran_order");
  if (fortran_order != "True" && fortran_order != "False")
    fail(path, "has fortran_order " + fortran_order + " in its header (True or False expected)");
  if (fortran_order == "True")
    fail(path, "is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  std::vector<int64_t> shape = parse_shape(path, header_field(path, header, "shape"));

  // The data size is checked against the shape before anything is allocated for it.
  const size_t element = f4 ? 4 : 8;
  const size_t data_start = header_start + header_length;
  const size_t expected = data_bytes(path, shape, element);
  if (bytes.size() - data_start != expected)
    fail(path, "holds " + std::to_string(bytes.size() - data_start) + " data bytes, its shape needs " +
                   std::to_string(expected));
  HostTensor tensor(std::move(shape));
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
  // Version 1.0 counts the header in 2 bytes; a longer one (a tensor of very high rank)
  // needs version 2.0's 4.
  const auto padded = [&](size_t length_width) {
    const size_t unpadded = kMagicSize + 2 + length_width + header.size() + 1;
    return header.size() + (64 - unpadded % 64) % 64 + 1;
  };
  const size_t length_width = padded(2) <= 0xffff ? 2 : 4;
  header.append(padded(length_width) - header.size() - 1, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot be written");
  out.write(kMagic, kMagicSize);
  const char version[2] = {length_width == 2 ? char{1} : char{2}, 0};
  out.write(version, 2);
  char length[4];
  for (size_t i = 0; i < length_width; ++i) length[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  out.write(length, static_cast<std::streamsize>(length_width));
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(tensor.data.data()), static_cast<std::streamsize>(tensor.data.size() * sizeof(float)));
  if (!out) fail(path, "could not be written completely");
}

}  // namespace layoutopt::kernels::reference
