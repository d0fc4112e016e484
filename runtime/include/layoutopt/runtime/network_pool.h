#pragma once
// NetworkPool: the networks of one loaded model, one per run in flight, so that a session can
// be run from many threads at once. A network's arena and kernel scratch hold one inference's
// intermediates, so two concurrent runs must never share one; the weights and the code are
// read-only and every network of a pool reads the same copy.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "layoutopt/runtime/network.h"

namespace layoutopt::runtime {

class NetworkPool {
 public:
  /// Makes a network on the thread that needs one (a run sizes its scratch on that thread).
  using Factory = std::function<std::unique_ptr<Network>()>;

  /// A network lent to one run; returned to the pool when the lease ends.
  class Lease {
   public:
    Lease(NetworkPool& pool, std::unique_ptr<Network> network) : pool_(&pool), network_(std::move(network)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    [[nodiscard]] Network& operator*() const { return *network_; }
    [[nodiscard]] Network* operator->() const { return network_.get(); }

   private:
    NetworkPool* pool_;
    std::unique_ptr<Network> network_;
  };

  explicit NetworkPool(Factory make) : make_(std::move(make)) {}

  /// An idle network, or a new one when every network is lent (the pool grows to the most
  /// runs ever in flight at once). Throws what the factory throws.
  [[nodiscard]] Lease acquire();
  /// Networks made so far: the most runs that were in flight at once.
  [[nodiscard]] size_t size() const;

 private:
  void give_back(std::unique_ptr<Network> network);

  Factory make_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Network>> idle_;
  size_t made_ = 0;
};

}  // namespace layoutopt::runtime
