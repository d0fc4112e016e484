#pragma once
// A 64-bit checksum of bytes, to tell a damaged or foreign file from the one written: fast
// enough to check a network's weights at every load (four independent multiply-rotate
// lanes over 8-byte words), not a defence against deliberate forgery.

#include <cstddef>
#include <cstdint>
#include <span>

namespace layoutopt::runtime {

[[nodiscard]] uint64_t checksum(std::span<const std::byte> bytes);

}  // namespace layoutopt::runtime
