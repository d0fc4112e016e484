#include "jit/host_target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <vector>

#include "layoutopt/cpu/features.h"

namespace layoutopt::kernels::jit {

namespace {

// LLVM reads CPUID itself, but dispatch, artifact checks and timing ask layoutopt/cpu: every
// feature that detector checks and finds missing is turned off, so the JIT never emits an
// instruction the rest of the tool believes absent (the two readers could disagree).
void disable_missing_features(llvm::StringMap<bool>& features) {
  for (const std::string& name : cpu::checkable_features())
    if (!cpu::has_feature(name)) features[name] = false;
}

}  // namespace

HostTarget detect_host_target() {
  HostTarget host;
  host.triple = llvm::sys::getProcessTriple();
  host.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features;
  if (!llvm::sys::getHostCPUFeatures(features)) return host;  // unknown: generic 4-lane code
  disable_missing_features(features);
  std::vector<std::string> entries;
  for (const auto& feature : features) entries.push_back((feature.second ? "+" : "-") + feature.first().str());
  std::sort(entries.begin(), entries.end());  // deterministic string, independent of hashing
  for (const std::string& entry : entries) host.features += (host.features.empty() ? "" : ",") + entry;
  const auto has = [&features](const char* name) { return features.lookup(name); };
  host.vector_lanes = has("avx512f") ? 16 : (has("avx2") || has("avx")) ? 8 : 4;
  return host;
}

}  // namespace layoutopt::kernels::jit
