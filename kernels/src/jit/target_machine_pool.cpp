#include "jit/target_machine_pool.h"

namespace layoutopt::kernels::jit {

TargetMachinePool::Lease TargetMachinePool::lease() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<llvm::TargetMachine> machine = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(machine));
    }
  }
  return Lease(*this, make_());  // made outside the lock: creating a machine takes a while
}

void TargetMachinePool::give_back(std::unique_ptr<llvm::TargetMachine> machine) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_back(std::move(machine));
}

}  // namespace layoutopt::kernels::jit
