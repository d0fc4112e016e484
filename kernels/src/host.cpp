#include "layoutopt/kernels/host.h"

#include "jit/jit_engine.h"

namespace layoutopt::kernels {

const HostInfo& host_info() {
  static const HostInfo info = [] {
    const jit::HostTarget& host = jit::JitEngine::instance().host();
    return HostInfo{host.cpu, host.vector_lanes};
  }();
  return info;
}

}  // namespace layoutopt::kernels
