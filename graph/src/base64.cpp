#include "base64.h"

#include <array>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> decoding_table() {
  std::array<int, 256> table{};
  for (int& entry : table) entry = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kAlphabet[i])] = i;
  return table;
}

}  // namespace

std::string base64_encode(std::span<const unsigned char> bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t left = bytes.size() - i;
    const uint32_t chunk = (uint32_t{bytes[i]} << 16) | (left > 1 ? uint32_t{bytes[i + 1]} << 8 : 0u) |
                           (left > 2 ? uint32_t{bytes[i + 2]} : 0u);
    text += kAlphabet[(chunk >> 18) & 63];
    text += kAlphabet[(chunk >> 12) & 63];
    text += left > 1 ? kAlphabet[(chunk >> 6) & 63] : '=';
    text += left > 2 ? kAlphabet[chunk & 63] : '=';
  }
  return text;
}

std::vector<unsigned char> base64_decode(const std::string& text, const std::string& context) {
  static constexpr auto table = decoding_table();
  if (text.size() % 4 != 0) throw GraphError(context + ": base64 text length is not a multiple of 4");
  std::vector<unsigned char> bytes;
  bytes.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t chunk = 0;
    int padding = 0;
    for (size_t j = 0; j < 4; ++j) {
      const char ch = text[i + j];
      const bool pad_allowed = i + 4 == text.size() && j >= 2;
      if (ch == '=' && pad_allowed) {
        ++padding;
        chunk <<= 6;
        continue;
      }
      const int digit = table[static_cast<unsigned char>(ch)];
      if (digit < 0 || padding) throw GraphError(context + ": invalid base64 character at offset " + std::to_string(i + j));
      chunk = (chunk << 6) | static_cast<uint32_t>(digit);
    }
    bytes.push_back(static_cast<unsigned char>(chunk >> 16));
    if (padding < 2) bytes.push_back(static_cast<unsigned char>(chunk >> 8));
    if (padding < 1) bytes.push_back(static_cast<unsigned char>(chunk));
  }
  return bytes;
}

}  // namespace layoutopt::graph
