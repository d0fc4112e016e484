#pragma once
// JitEngine: the process-wide LLVM ORC LLJIT instance, configured for the host CPU.
// Private to the kernels library (LLVM types must not leak into public headers).

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <mutex>
#include <string>

namespace layoutopt::kernels::jit {

struct HostTarget {
  std::string triple;
  std::string cpu;       ///< llvm::sys::getHostCPUName()
  std::string features;  ///< "+avx512f,-amx-tile,..." from llvm::sys::getHostCPUFeatures()
  int vector_lanes = 4;  ///< fp32 lanes of the widest vector the features allow
};

class JitEngine {
 public:
  /// The engine, created on first use (initializes LLVM's native target once).
  static JitEngine& instance();

  [[nodiscard]] const HostTarget& host() const { return host_; }
  /// Stamps triple and data layout of the host target machine on a fresh module.
  void configure(llvm::Module& module) const;
  /// Tags a function with the host CPU and its full vector width, so instruction selection
  /// keeps 512-bit vectors whole (some CPUs otherwise prefer 256-bit).
  void configure(llvm::Function& function) const;
  /// Verifies, optimizes (a light pipeline: kernels arrive unrolled and vectorized) and
  /// compiles the module (instruction selection at the aggressive level), returning the address of `symbol`.
  /// Thread-safe. Throws KernelError on failure.
  void* compile(llvm::orc::ThreadSafeModule module, const std::string& symbol);

 private:
  JitEngine();
  void optimize(llvm::Module& module);

  HostTarget host_;
  std::unique_ptr<llvm::TargetMachine> machine_;  // for the optimizer's target queries
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex mutex_;
};

}  // namespace layoutopt::kernels::jit
