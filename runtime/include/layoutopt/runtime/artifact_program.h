#pragma once
// An ahead-of-time artifact's program.bin: the NetworkSpec, the CPU its code was compiled
// for, and the seal of the weights.bin that belongs to it, in a small versioned binary
// format (docs/design/aot-artifact.md):
//
//   "LOPROGRM"  u32 version  u64 payload bytes  u64 checksum of the payload  payload
//
// The payload is little-endian integers, length-prefixed strings and lists. Decoding checks
// the checksum first (a damaged file), then every read against the end (a truncated or
// malformed one), then the spec's indices (runtime::validate).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::runtime {

inline constexpr uint32_t kProgramVersion = 2;

/// The CPU the kernels were compiled for, as LLVM names it.
struct TargetSpec {
  std::string triple;
  std::string cpu;
  std::vector<std::string> features;  ///< the instruction sets the code may use ("avx2", "avx512f", ...)
  bool operator==(const TargetSpec&) const = default;
};

/// Which weights.bin belongs to the program.
struct WeightsSeal {
  int64_t floats = 0;
  uint64_t checksum = 0;
  bool operator==(const WeightsSeal&) const = default;
};

struct ArtifactProgram {
  TargetSpec target;
  int32_t threads = 0;  ///< the thread count it was compiled for; 0: OpenMP's default
  WeightsSeal weights;
  NetworkSpec network;
  bool operator==(const ArtifactProgram&) const = default;
};

/// Throws ArtifactError for a network with a ReferenceStep (naming its operator): its code
/// needs the graph, which an artifact does not hold.
[[nodiscard]] std::vector<std::byte> encode_program(const ArtifactProgram& program);
/// Throws ArtifactError saying what is wrong: not a program file, another version, damaged
/// (checksum), truncated, or holding a malformed spec.
[[nodiscard]] ArtifactProgram decode_program(std::span<const std::byte> bytes);

/// decode_program of a file's bytes; ArtifactError also when it cannot be read.
[[nodiscard]] ArtifactProgram read_program_file(const std::filesystem::path& path);
/// encode_program to a file; ArtifactError also when it cannot be written.
void write_program_file(const std::filesystem::path& path, const ArtifactProgram& program);

}  // namespace layoutopt::runtime
