#include "layoutopt/runtime/weights_file.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "byte_stream.h"
#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/runtime/checksum.h"

namespace layoutopt::runtime {

namespace {

constexpr char kMagic[8] = {'L', 'O', 'W', 'E', 'I', 'G', 'H', 'T'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderBytes = sizeof kMagic + 4 + 4 + 8 + 8;

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, CloseFile>;

File open(const std::filesystem::path& path, const char* mode) {
  File file(std::fopen(path.c_str(), mode));
  if (!file) throw ArtifactError("cannot open " + path.string() + ": " + std::strerror(errno));
  return file;
}

std::span<const std::byte> bytes_of(std::span<const float> floats) { return std::as_bytes(floats); }

}  // namespace

WeightsSeal write_weights_file(const std::filesystem::path& path, std::span<const float> weights) {
  const WeightsSeal seal{static_cast<int64_t>(weights.size()), checksum(bytes_of(weights))};
  detail::ByteWriter header;
  for (char c : kMagic) header.integer(static_cast<uint8_t>(c));
  header.integer(kVersion);
  header.integer<uint32_t>(0);
  header.integer(seal.floats);
  header.integer(seal.checksum);
  File file = open(path, "wb");
  const bool written = std::fwrite(header.bytes().data(), 1, header.bytes().size(), file.get()) == header.bytes().size() &&
                       std::fwrite(weights.data(), sizeof(float), weights.size(), file.get()) == weights.size();
  if (!written || std::fclose(file.release()) != 0) throw ArtifactError("cannot write " + path.string());
  return seal;
}

PageBlock read_weights_file(const std::filesystem::path& path, const WeightsSeal& expected) {
  const std::string name = path.filename().string();
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw ArtifactError("cannot read " + path.string() + ": " + error.message());
  File file = open(path, "rb");
  std::array<std::byte, kHeaderBytes> header{};
  if (size < kHeaderBytes || std::fread(header.data(), 1, header.size(), file.get()) != header.size())
    throw ArtifactError(name + " is truncated: shorter than its " + std::to_string(kHeaderBytes) + "-byte header");
  if (std::memcmp(header.data(), kMagic, sizeof kMagic) != 0)
    throw ArtifactError(name + " is not a layoutopt weights file (its first bytes are not LOWEIGHT)");
  detail::ByteReader reader(std::span<const std::byte>(header).subspan(sizeof kMagic), name);
  const auto version = reader.integer<uint32_t>("version");
  if (version != kVersion)
    throw ArtifactError(name + " has format version " + std::to_string(version) + "; this runtime reads " +
                        std::to_string(kVersion));
  (void)reader.integer<uint32_t>("reserved");
  const auto floats = reader.integer<int64_t>("float count");
  const auto stored = reader.integer<uint64_t>("checksum");
  if (floats != expected.floats)
    throw ArtifactError(name + " holds " + std::to_string(floats) + " floats, program.bin expects " +
                        std::to_string(expected.floats) + ": the weights of another compile");
  if (size - kHeaderBytes != static_cast<uintmax_t>(floats) * sizeof(float))
    throw ArtifactError(name + " is truncated or extended: " + std::to_string(size - kHeaderBytes) +
                        " bytes of weights, its header says " + std::to_string(floats) + " floats");
  PageBlock block(static_cast<size_t>(floats));
  if (std::fread(block.data(), sizeof(float), block.size(), file.get()) != block.size())
    throw ArtifactError("cannot read the weights of " + path.string());
  const uint64_t actual = checksum(bytes_of(block.span()));
  if (actual != stored) throw ArtifactError(name + " is damaged: its checksum does not match its contents");
  if (actual != expected.checksum)
    throw ArtifactError(name + " does not belong to program.bin: the checksum program.bin records differs");
  return block;
}

}  // namespace layoutopt::runtime
