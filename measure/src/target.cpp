#include "layoutopt/measure/target.h"

#include "layoutopt/kernels/host.h"

namespace layoutopt::measure {

std::string host_target() { return "llvm -mcpu=" + kernels::host_info().cpu_name; }

}  // namespace layoutopt::measure
