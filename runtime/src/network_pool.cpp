#include "layoutopt/runtime/network_pool.h"

namespace layoutopt::runtime {

NetworkPool::Lease::~Lease() {
  if (network_) pool_->give_back(std::move(network_));
}

NetworkPool::Lease NetworkPool::acquire() {
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<Network> network = std::move(idle_.back());
      idle_.pop_back();
      return {*this, std::move(network)};
    }
  }
  // Made outside the lock: materializing takes a while, and other runs may return theirs.
  std::unique_ptr<Network> network = make_();
  const std::lock_guard lock(mutex_);
  ++made_;
  idle_.reserve(made_);  // so that give_back, called from a destructor, never allocates
  return {*this, std::move(network)};
}

size_t NetworkPool::size() const {
  const std::lock_guard lock(mutex_);
  return made_;
}

void NetworkPool::give_back(std::unique_ptr<Network> network) {
  const std::lock_guard lock(mutex_);
  idle_.push_back(std::move(network));
}

}  // namespace layoutopt::runtime
