#pragma once
// Base64 (RFC 4648) for storing raw float bytes inside JSON documents bit-exactly.

#include <span>
#include <string>
#include <vector>

namespace layoutopt::graph {

[[nodiscard]] std::string base64_encode(std::span<const unsigned char> bytes);
/// Throws GraphError mentioning `context` on characters outside the alphabet or bad length.
[[nodiscard]] std::vector<unsigned char> base64_decode(const std::string& text, const std::string& context);

}  // namespace layoutopt::graph
