#include "jit/host_target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <vector>

namespace layoutopt::kernels::jit {

HostTarget detect_host_target() {
  HostTarget host;
  host.triple = llvm::sys::getProcessTriple();
  host.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features;
  if (!llvm::sys::getHostCPUFeatures(features)) return host;  // unknown: generic 4-lane code
  std::vector<std::string> entries;
  for (const auto& feature : features) entries.push_back((feature.second ? "+" : "-") + feature.first().str());
  std::sort(entries.begin(), entries.end());  // deterministic string, independent of hashing
  for (const std::string& entry : entries) host.features += (host.features.empty() ? "" : ",") + entry;
  const auto has = [&features](const char* name) { return features.lookup(name); };
  host.vector_lanes = has("avx512f") ? 16 : (has("avx2") || has("avx")) ? 8 : 4;
  return host;
}

}  // namespace layoutopt::kernels::jit
