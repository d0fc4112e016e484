#include "layoutopt/cpu/features.h"

#include <cpuid.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace layoutopt::cpu {

namespace {

// Read from CPUID directly, as LLVM does when it picks the JIT's features, rather than from
// /proc/cpuinfo (which omits some on VMs) or __builtin_cpu_supports (whose feature names
// differ between GCC and clang versions).
enum Register { eax, ebx, ecx, edx };

// OS-enabled register state (XCR0) an instruction set also needs.
enum class State : uint64_t {
  none = 0,
  avx = 0x6,          // SSE and AVX (YMM) state
  avx512 = 0xe6,      // plus opmask and ZMM state
  amx = 0x60000,      // tile configuration and data
};

/// Where CPUID reports one feature, under its LLVM name.
struct FeatureBit {
  const char* name;
  uint32_t leaf;
  uint32_t subleaf;
  Register reg;
  unsigned bit;
  State state;
};

constexpr std::array kFeatures{
    FeatureBit{"sse", 1, 0, edx, 25, State::none},
    FeatureBit{"sse2", 1, 0, edx, 26, State::none},
    FeatureBit{"sse3", 1, 0, ecx, 0, State::none},
    FeatureBit{"pclmul", 1, 0, ecx, 1, State::none},
    FeatureBit{"ssse3", 1, 0, ecx, 9, State::none},
    FeatureBit{"fma", 1, 0, ecx, 12, State::avx},
    FeatureBit{"sse4.1", 1, 0, ecx, 19, State::none},
    FeatureBit{"sse4.2", 1, 0, ecx, 20, State::none},
    FeatureBit{"movbe", 1, 0, ecx, 22, State::none},
    FeatureBit{"popcnt", 1, 0, ecx, 23, State::none},
    FeatureBit{"aes", 1, 0, ecx, 25, State::none},
    FeatureBit{"avx", 1, 0, ecx, 28, State::avx},
    FeatureBit{"f16c", 1, 0, ecx, 29, State::avx},
    FeatureBit{"bmi", 7, 0, ebx, 3, State::none},
    FeatureBit{"avx2", 7, 0, ebx, 5, State::avx},
    FeatureBit{"bmi2", 7, 0, ebx, 8, State::none},
    FeatureBit{"avx512f", 7, 0, ebx, 16, State::avx512},
    FeatureBit{"avx512dq", 7, 0, ebx, 17, State::avx512},
    FeatureBit{"avx512ifma", 7, 0, ebx, 21, State::avx512},
    FeatureBit{"clflushopt", 7, 0, ebx, 23, State::none},
    FeatureBit{"avx512pf", 7, 0, ebx, 26, State::avx512},
    FeatureBit{"avx512er", 7, 0, ebx, 27, State::avx512},
    FeatureBit{"avx512cd", 7, 0, ebx, 28, State::avx512},
    FeatureBit{"sha", 7, 0, ebx, 29, State::none},
    FeatureBit{"avx512bw", 7, 0, ebx, 30, State::avx512},
    FeatureBit{"avx512vl", 7, 0, ebx, 31, State::avx512},
    FeatureBit{"avx512vbmi", 7, 0, ecx, 1, State::avx512},
    FeatureBit{"avx512vbmi2", 7, 0, ecx, 6, State::avx512},
    FeatureBit{"gfni", 7, 0, ecx, 8, State::none},
    FeatureBit{"vaes", 7, 0, ecx, 9, State::avx},
    FeatureBit{"vpclmulqdq", 7, 0, ecx, 10, State::avx},
    FeatureBit{"avx512vnni", 7, 0, ecx, 11, State::avx512},
    FeatureBit{"avx512bitalg", 7, 0, ecx, 12, State::avx512},
    FeatureBit{"avx512vpopcntdq", 7, 0, ecx, 14, State::avx512},
    FeatureBit{"avx512vp2intersect", 7, 0, edx, 8, State::avx512},
    FeatureBit{"amx-bf16", 7, 0, edx, 22, State::amx},
    FeatureBit{"avx512fp16", 7, 0, edx, 23, State::avx512},
    FeatureBit{"amx-tile", 7, 0, edx, 24, State::amx},
    FeatureBit{"amx-int8", 7, 0, edx, 25, State::amx},
    FeatureBit{"avxvnni", 7, 1, eax, 4, State::avx},
    FeatureBit{"avx512bf16", 7, 1, eax, 5, State::avx512},
    FeatureBit{"lzcnt", 0x80000001, 0, ecx, 5, State::none},
    FeatureBit{"sse4a", 0x80000001, 0, ecx, 6, State::none},
    FeatureBit{"xop", 0x80000001, 0, ecx, 11, State::avx},
    FeatureBit{"fma4", 0x80000001, 0, ecx, 16, State::avx},
};

/// The four registers of CPUID (leaf, subleaf); zeros for a leaf the CPU does not have.
std::array<uint32_t, 4> cpuid(uint32_t leaf, uint32_t subleaf) {
  std::array<uint32_t, 4> r{};
  if (__get_cpuid_count(leaf, subleaf, &r[eax], &r[ebx], &r[ecx], &r[edx]) == 0) r = {};
  return r;
}

/// The register state the OS saves on context switches (XCR0); 0 without OSXSAVE.
uint64_t enabled_state() {
  constexpr unsigned kOsxsave = 27;
  if ((cpuid(1, 0)[ecx] >> kOsxsave & 1U) == 0) return 0;
  uint32_t low = 0, high = 0;
  __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (uint64_t{high} << 32) | low;
}

bool detect(const FeatureBit& feature) {
  const auto state = static_cast<uint64_t>(feature.state);
  return (cpuid(feature.leaf, feature.subleaf)[feature.reg] >> feature.bit & 1U) != 0 &&
         (enabled_state() & state) == state;
}

/// Index of `name` in kFeatures, or kFeatures.size() when it has no entry.
size_t index_of(std::string_view name) {
  return static_cast<size_t>(
      std::find_if(kFeatures.begin(), kFeatures.end(), [&](const FeatureBit& f) { return name == f.name; }) -
      kFeatures.begin());
}

// Read once: CPUID and XCR0 do not change while a process runs, and dispatch asks often.
const std::array<bool, kFeatures.size()>& detected() {
  static const std::array<bool, kFeatures.size()> present = [] {
    std::array<bool, kFeatures.size()> found{};
    for (size_t i = 0; i < kFeatures.size(); ++i) found[i] = detect(kFeatures[i]);
    return found;
  }();
  return present;
}

}  // namespace

const std::vector<std::string>& checkable_features() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const FeatureBit& feature : kFeatures) list.emplace_back(feature.name);
    return list;
  }();
  return names;
}

bool is_checkable(std::string_view llvm_name) { return index_of(llvm_name) < kFeatures.size(); }

bool has_feature(std::string_view llvm_name) {
  const size_t index = index_of(llvm_name);
  return index < kFeatures.size() && detected()[index];
}

std::vector<std::string> present_features() {
  std::vector<std::string> present;
  for (const std::string& name : checkable_features())
    if (has_feature(name)) present.push_back(name);
  return present;
}

std::vector<std::string> missing_features(const std::vector<std::string>& required) {
  std::vector<std::string> missing;
  for (const std::string& name : required)
    if (is_checkable(name) && !has_feature(name)) missing.push_back(name);
  return missing;
}

}  // namespace layoutopt::cpu
