#include "layoutopt/runtime/checksum.h"

#include <array>
#include <bit>
#include <cstring>

namespace layoutopt::runtime {

namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;

uint64_t mix(uint64_t lane, uint64_t word) { return std::rotl(lane ^ (word * kPrime2), 31) * kPrime1; }

uint64_t load(const std::byte* p) {
  uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  return word;
}

}  // namespace

uint64_t checksum(std::span<const std::byte> bytes) {
  std::array<uint64_t, 4> lanes{kPrime1, kPrime2, ~kPrime1, ~kPrime2};
  size_t at = 0;
  for (; at + 32 <= bytes.size(); at += 32)
    for (size_t l = 0; l < lanes.size(); ++l) lanes[l] = mix(lanes[l], load(bytes.data() + at + 8 * l));
  uint64_t hash = bytes.size() * kPrime1;
  for (uint64_t lane : lanes) hash = mix(hash, lane);
  for (; at < bytes.size(); ++at) hash = mix(hash, static_cast<uint64_t>(bytes[at]));
  return hash ^ (hash >> 29);
}

}  // namespace layoutopt::runtime
