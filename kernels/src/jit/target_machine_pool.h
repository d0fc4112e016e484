#pragma once
// TargetMachinePool: target machines lent to one thread at a time. A TargetMachine caches
// subtargets per function attribute set without a lock, so threads that optimize or generate
// code at once each need their own; the pool makes one per thread that ever needed one at
// the same time as another, and keeps them for the next compile.

#include <llvm/Target/TargetMachine.h>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace layoutopt::kernels::jit {

class TargetMachinePool {
 public:
  using Factory = std::function<std::unique_ptr<llvm::TargetMachine>()>;
  explicit TargetMachinePool(Factory make) : make_(std::move(make)) {}

  /// A machine for the caller alone until the lease ends.
  class Lease {
   public:
    Lease(TargetMachinePool& pool, std::unique_ptr<llvm::TargetMachine> machine)
        : pool_(&pool), machine_(std::move(machine)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_->give_back(std::move(machine_)); }
    llvm::TargetMachine& operator*() const { return *machine_; }
    llvm::TargetMachine* operator->() const { return machine_.get(); }

   private:
    TargetMachinePool* pool_;
    std::unique_ptr<llvm::TargetMachine> machine_;
  };

  [[nodiscard]] Lease lease();

 private:
  void give_back(std::unique_ptr<llvm::TargetMachine> machine);

  Factory make_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<llvm::TargetMachine>> idle_;
};

}  // namespace layoutopt::kernels::jit
