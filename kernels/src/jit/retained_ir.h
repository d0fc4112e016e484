#pragma once
// RetainedIr: keeps the JIT's optimized IR while alive (JitEngine::retain_ir), so that every
// kernel compiled meanwhile can also be emitted again as an object or as assembly.

#include "jit/jit_engine.h"

namespace layoutopt::kernels::jit {

class RetainedIr {
 public:
  RetainedIr() { JitEngine::instance().retain_ir(true); }
  ~RetainedIr() { JitEngine::instance().retain_ir(false); }
  RetainedIr(const RetainedIr&) = delete;
  RetainedIr& operator=(const RetainedIr&) = delete;
};

}  // namespace layoutopt::kernels::jit
