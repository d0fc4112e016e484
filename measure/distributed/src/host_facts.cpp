#include "layoutopt/distributed/host_facts.h"

#include <sched.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <sstream>

#include "layoutopt/timing/cpu_info.h"
#include "layoutopt/timing/peak_flops.h"

namespace layoutopt::distributed {

namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

int usable_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return sched_getaffinity(0, sizeof(allowed), &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
}

// Why rank `rank` cannot time on its threads: mpirun binds every rank to one core by default.
std::optional<std::string> too_few_cpus(const HostFacts& facts, size_t rank) {
  if (facts.usable_cpus >= facts.threads) return std::nullopt;
  return "rank " + std::to_string(rank) + " (" + facts.host + ") may run on " + std::to_string(facts.usable_cpus) +
         " CPU(s) but times on " + std::to_string(facts.threads) +
         " threads (mpirun binds each rank to a core unless given --bind-to none)";
}

// How `other` (rank `rank`) differs from `reference` (rank 0) in what timing depends on.
std::optional<std::string> difference(const HostFacts& reference, const HostFacts& other, size_t rank,
                                      const HostRules& rules) {
  std::ostringstream out;
  out << "rank " << rank << " (" << other.host << ") ";
  if (other.cpu_model != reference.cpu_model)
    out << "has CPU '" << other.cpu_model << "', rank 0 '" << reference.cpu_model << "'";
  else if (other.features != reference.features)
    out << "has features [" << joined(other.features) << "], rank 0 [" << joined(reference.features) << "]";
  else if (other.threads != reference.threads)
    out << "times on " << other.threads << " threads, rank 0 on " << reference.threads;
  // Ranks on one machine (allowed for tests) measured their peaks at once, competing for its
  // cores: the figures differ by the load, not by the hardware, which is the same.
  else if (other.host != reference.host &&
           std::abs(other.fma_gflops - reference.fma_gflops) > rules.peak_tolerance * reference.fma_gflops)
    out << "measured an FMA peak of " << other.fma_gflops << " GFLOPS, rank 0 " << reference.fma_gflops
        << " (more than " << rules.peak_tolerance * 100 << "% apart)";
  else
    return std::nullopt;
  return out.str();
}

}  // namespace

HostFacts detect_host_facts(int threads) {
  const timing::CpuInfo cpu = timing::detect_cpu();
  const timing::PeakFlops peak = timing::measure_peak_flops(timing::peak_flops_policy(threads));
  return {host_name(), cpu.model_name, cpu.simd_features(), peak.gflops, threads, usable_cpus()};
}

std::optional<std::string> host_mismatch(const std::vector<HostFacts>& ranks, const HostRules& rules) {
  for (size_t rank = 0; rank < ranks.size(); ++rank)
    if (std::optional<std::string> why = too_few_cpus(ranks[rank], rank)) return "refusing to tune: " + *why;
  for (size_t rank = 1; rank < ranks.size(); ++rank) {
    if (std::optional<std::string> why = difference(ranks.front(), ranks[rank], rank, rules))
      return "refusing to tune on different hosts: " + *why;
    for (size_t earlier = 0; earlier < rank && !rules.allow_shared_host; ++earlier)
      if (ranks[earlier].host == ranks[rank].host)
        return "refusing to time on a shared host: ranks " + std::to_string(earlier) + " and " + std::to_string(rank) +
               " both run on " + ranks[rank].host +
               " and would disturb each other's timings (one rank per host; --mpi-allow-shared-host for tests)";
  }
  return std::nullopt;
}

}  // namespace layoutopt::distributed
