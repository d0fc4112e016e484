#include "layoutopt/timing/cpu_info.h"

#include <doctest/doctest.h>

#include "layoutopt/cpu/features.h"

#include <stdexcept>
#include <string>

using layoutopt::timing::CpuInfo;
using layoutopt::timing::detect_cpu;
using layoutopt::timing::parse_proc_cpuinfo;

namespace {

// Two packages, two cores each, two hardware threads per core (8 logical CPUs).
std::string sample_cpuinfo() {
  std::string text;
  for (int cpu = 0; cpu < 8; ++cpu)
    text += "processor\t: " + std::to_string(cpu) +
            "\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC Test 16-Core Processor\n"
            "physical id\t: " +
            std::to_string(cpu / 4) + "\ncore id\t\t: " + std::to_string(cpu % 4 / 2) +
            "\nflags\t\t: fpu sse4_2 avx fma avx2 avx512f avx512bw avx512vl avx512_bf16\n\n";
  return text;
}

}  // namespace

TEST_CASE("/proc/cpuinfo text is parsed") {
  const CpuInfo info = parse_proc_cpuinfo(sample_cpuinfo());
  CHECK(info.vendor == "AuthenticAMD");
  CHECK(info.model_name == "AMD EPYC Test 16-Core Processor");
  CHECK(info.logical_cores == 8);
  CHECK(info.physical_cores == 4);
  // The features come from the CPUID detector, not from the file's flags line.
  CHECK(info.flags.empty());
}

TEST_CASE("simd_features lists the relevant features present, in a fixed order, LLVM's names") {
  CpuInfo info;
  info.flags = {"avx", "avx2", "avx512bf16", "avx512bw", "avx512f", "avx512vl", "fma", "popcnt", "sse4.2"};
  CHECK(info.has("avx512bf16"));
  CHECK_FALSE(info.has("avx512fp16"));
  CHECK(info.simd_features() ==
        std::vector<std::string>{"sse4.2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512bf16"});
}

TEST_CASE("cpuinfo without core ids counts logical CPUs as cores") {
  const CpuInfo info = parse_proc_cpuinfo("processor : 0\nflags : sse4_2\nprocessor : 1\n");
  CHECK(info.logical_cores == 2);
  CHECK(info.physical_cores == 2);
  CHECK_THROWS_WITH_AS(parse_proc_cpuinfo("garbage"), doctest::Contains("no 'processor' entry"), std::runtime_error);
}

TEST_CASE("this machine reports consistent facts") {
  const CpuInfo info = detect_cpu();
  CHECK(info.logical_cores >= 1);
  CHECK(info.physical_cores >= 1);
  CHECK(info.physical_cores <= info.logical_cores);
  CHECK(info.default_threads >= 1);
  CHECK_FALSE(info.model_name.empty());
  // Every AVX-512 subset implies AVX-512F, which implies AVX2 and AVX on all shipping CPUs.
  for (const char* subset : {"avx512bw", "avx512vl", "avx512dq", "avx512bf16"})
    if (info.has(subset)) CHECK(info.has("avx512f"));
  if (info.has("avx512f")) CHECK(info.has("avx2"));
  if (info.has("avx2")) CHECK(info.has("avx"));
#if defined(__x86_64__)
  // The kernels dispatch on the CPUID detector; the report must agree with it.
  CHECK(info.has("avx2") == static_cast<bool>(__builtin_cpu_supports("avx2")));
  CHECK(info.has("avx512f") == static_cast<bool>(__builtin_cpu_supports("avx512f")));
#endif
  CHECK(info.flags.size() == layoutopt::cpu::present_features().size());
}
