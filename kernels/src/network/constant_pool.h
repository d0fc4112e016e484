#pragma once
// Memory for a compiled network's constants (re-laid weights, biases, folded batch norms)
// and its activation arena. A network streams tens of megabytes of weights every inference;
// on 4 KiB pages that is a TLB miss every 4 KiB, so both live in 2 MiB-aligned blocks
// advised as transparent huge pages (madvise; the kernel may still decline). Constants are
// packed into a few such blocks rather than one allocation each.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace layoutopt::kernels::network {

/// Zero-filled floats in huge-page-advised memory, never moved.
class PageBlock {
 public:
  explicit PageBlock(size_t floats);
  [[nodiscard]] float* data() const { return memory_.get(); }
  [[nodiscard]] size_t size() const { return floats_; }

 private:
  struct Free {
    void operator()(float* p) const;
  };
  std::unique_ptr<float, Free> memory_;
  size_t floats_ = 0;
};

class ConstantPool {
 public:
  /// Copies `values` into the pool (64-byte aligned) and returns their address, valid for
  /// the pool's lifetime.
  const float* add(std::span<const float> values);
  [[nodiscard]] int64_t bytes() const { return bytes_; }

 private:
  std::vector<PageBlock> blocks_;
  size_t used_ = 0;  ///< floats used in the last block
  int64_t bytes_ = 0;
};

}  // namespace layoutopt::kernels::network
