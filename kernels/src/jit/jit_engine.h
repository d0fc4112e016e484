#pragma once
// JitEngine: the process-wide LLVM ORC LLJIT instance, configured for the host CPU.
// Private to the kernels library (LLVM types must not leak into public headers).

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "jit/target_machine_pool.h"

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
  /// Thread-safe, and concurrent: threads optimize and generate code at once (each on a
  /// target machine of its own), only linking into the JIT goes one at a time.
  /// Throws KernelError on failure.
  void* compile(llvm::orc::ThreadSafeModule module, const std::string& symbol);

  /// While on, compile() keeps each optimized module (as bitcode), so that emit_object can
  /// compile the very same IR ahead of time; switching it off drops what was kept.
  void retain_ir(bool on);
  [[nodiscard]] bool retaining_ir();
  /// Whether emit_object can make `symbol`'s object: retention is on and its IR was kept.
  [[nodiscard]] bool has_retained_ir(const std::string& symbol);
  /// Position-independent object code (ELF) of the retained module defining `symbol`, for
  /// the host target with the JIT's CPU, features and optimization level. Thread-safe and
  /// concurrent, as compile(). Throws KernelError when its IR was not retained or code
  /// generation fails.
  [[nodiscard]] std::string emit_object(const std::string& symbol);
  /// The same code as the JIT runs for the retained module defining `symbol`, as verbose
  /// assembly text (AT&T syntax, with LLVM's loop and spill annotations). Thread-safe.
  /// Throws KernelError as emit_object.
  [[nodiscard]] std::string emit_assembly(const std::string& symbol);

 private:
  JitEngine();
  /// The retained module defining `symbol`, read into `context`.
  std::unique_ptr<llvm::Module> retained_module(const std::string& symbol, llvm::LLVMContext& context);

  HostTarget host_;
  std::string data_layout_;      // of the host target machine, stamped on every module
  TargetMachinePool machines_;  // the JIT's machines: optimizer queries and code generation
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  TargetMachinePool object_machines_;  // the JIT's machines made position-independent, for emit_object
  bool retain_ir_ = false;
  std::map<std::string, std::string> retained_ir_;  // bitcode by symbol
  std::mutex mutex_;                                 // the members above and linking into jit_
};

}  // namespace layoutopt::kernels::jit
