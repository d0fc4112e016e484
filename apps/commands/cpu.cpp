// `layoutopt cpu [--threads N] [--json]`: the machine facts every measurement depends on, the
// measured peak fp32 FMA throughput and memory bandwidth (the roofline's two ceilings), and the
// machine balance: the FLOPs per byte at which a step stops being bound by memory.

#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/timing/cpu_info.h"
#include "layoutopt/timing/memory_bandwidth.h"
#include "layoutopt/timing/peak_flops.h"

namespace layoutopt::apps {

namespace {

struct CpuFlags {
  int threads = 0;
  bool json = false;
};

std::string cache_name(const timing::CacheInfo& cache) {
  const char kind = cache.type == "Data" ? 'd' : cache.type == "Instruction" ? 'i' : '\0';
  return "L" + std::to_string(cache.level) + (kind ? std::string(1, kind) : "");
}

std::string bytes_text(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20) && bytes % (int64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

/// The FLOPs per byte at which the FMA peak and the read bandwidth meet.
double machine_balance(const timing::PeakFlops& peak, const timing::MemoryBandwidth& memory) {
  return memory.read_gbps > 0 ? peak.gflops / memory.read_gbps : 0.0;
}

nlohmann::json cpu_json(const timing::CpuInfo& cpu, const timing::PeakFlops& peak, const timing::MemoryBandwidth& memory) {
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& cache : cpu.caches)
    caches.push_back({{"name", cache_name(cache)},
                      {"level", cache.level},
                      {"type", cache.type},
                      {"bytes", cache.size_bytes},
                      {"shared_by_cpus", cache.shared_by_cpus}});
  return {{"vendor", cpu.vendor},
          {"model", cpu.model_name},
          {"isa", cpu.simd_features()},
          {"physical_cores", cpu.physical_cores},
          {"logical_cores", cpu.logical_cores},
          {"default_threads", cpu.default_threads},
          {"caches", caches},
          {"peak",
           {{"gflops", peak.gflops},
            {"median_gflops", peak.median_gflops},
            {"fma_and_add_gflops", peak.fma_and_add_gflops},
            {"threads", peak.threads},
            {"isa", peak.isa},
            {"runs", peak.timing.repeats},
            {"median_ms", peak.timing.ms.median},
            {"mad_ms", peak.timing.ms.mad}}},
          {"memory",
           {{"read_gbps", memory.read_gbps},
            {"read_median_gbps", memory.read_median_gbps},
            {"triad_gbps", memory.triad_gbps},
            {"triad_median_gbps", memory.triad_median_gbps},
            {"threads", memory.threads},
            {"buffer_bytes", memory.buffer_bytes},
            {"runs", memory.read_timing.repeats}}},
          {"machine_balance_flops_per_byte", machine_balance(peak, memory)}};
}

void print_cpu(const timing::CpuInfo& cpu, const timing::PeakFlops& peak, const timing::MemoryBandwidth& memory) {
  std::ostringstream isa, caches;
  for (const auto& feature : cpu.simd_features()) isa << feature << " ";
  for (const auto& cache : cpu.caches)
    caches << cache_name(cache) << " " << bytes_text(cache.size_bytes) << " (" << cache.shared_by_cpus
           << (cache.shared_by_cpus == 1 ? " cpu)  " : " cpus)  ");
  // Some VMs have no cache directory in sysfs; say so rather than print an empty line.
  if (cpu.caches.empty()) caches << "not reported (no cache directory in sysfs)";
  std::cout << std::left << std::setw(12) << "cpu" << cpu.model_name << " (" << cpu.vendor << ")\n"
            << std::setw(12) << "isa" << isa.str() << "\n"
            << std::setw(12) << "cores" << cpu.physical_cores << " physical, " << cpu.logical_cores << " logical\n"
            << std::setw(12) << "threads" << cpu.default_threads << " by default\n"
            << std::setw(12) << "caches" << caches.str() << "\n"
            << std::setw(12) << "peak fp32" << std::fixed << std::setprecision(1) << peak.gflops << " GFLOPS on "
            << peak.threads << (peak.threads == 1 ? " thread" : " threads") << " (" << peak.isa << " FMA, fastest of "
            << peak.timing.repeats << " runs; median " << peak.median_gflops << ")\n"
            << std::setw(12) << "" << peak.fma_and_add_gflops
            << " GFLOPS with add chains beside the FMAs (spec-sheet peak; convolutions are all FMA)\n"
            << std::setw(12) << "memory" << memory.read_gbps << " GB/s read on " << memory.threads
            << (memory.threads == 1 ? " thread" : " threads") << " (fastest of " << memory.read_timing.repeats
            << " runs over " << (memory.buffer_bytes >> 20) << " MiB; median " << memory.read_median_gbps << "), triad "
            << memory.triad_gbps << " GB/s (median " << memory.triad_median_gbps << ")\n"
            << std::setw(12) << "balance" << machine_balance(peak, memory)
            << " FLOPs per byte: steps below it are bound by memory (peak / read bandwidth)\n";
}

}  // namespace

void add_cpu_command(CLI::App& app) {
  auto flags = std::make_shared<CpuFlags>();
  CLI::App* command =
      app.add_subcommand("cpu", "CPU model, SIMD features, cores, caches, the measured peak fp32 FMA throughput and memory bandwidth");
  add_threads_option(*command, flags->threads, "threads for the peak and bandwidth measurements");
  command->add_flag("--json", flags->json, "print machine-readable JSON");
  command->callback([flags] {
    const timing::CpuInfo cpu = timing::detect_cpu();
    const timing::PeakFlops peak = timing::measure_peak_flops(timing::peak_flops_policy(flags->threads));
    const timing::MemoryBandwidth memory =
        timing::measure_memory_bandwidth(timing::memory_bandwidth_policy(flags->threads));
    if (flags->json) std::cout << cpu_json(cpu, peak, memory).dump(2) << "\n";
    else print_cpu(cpu, peak, memory);
  });
}

}  // namespace layoutopt::apps
