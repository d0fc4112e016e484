#pragma once
// Memory that kernels run on: a compiled network's constants and activation arena, and the
// operands of every timed measurement, so that isolated timings see the same alignment and
// pages as the network. A network streams tens of megabytes of weights every inference; on
// 4 KiB pages that is a TLB miss every 4 KiB, so blocks are 2 MiB-aligned and advised as
// transparent huge pages (madvise; the kernel may still decline).

#include <cstddef>
#include <memory>
#include <span>

namespace layoutopt::runtime {

/// Zero-filled floats in 2 MiB-aligned, huge-page-advised memory, never moved. The pages
/// are faulted in by the constructor, not by the first run.
class PageBlock {
 public:
  explicit PageBlock(size_t floats);
  [[nodiscard]] float* data() const { return memory_.get(); }
  [[nodiscard]] size_t size() const { return floats_; }
  [[nodiscard]] bool empty() const { return floats_ == 0; }
  [[nodiscard]] std::span<float> span() const { return {memory_.get(), floats_}; }

 private:
  struct Free {
    void operator()(float* p) const;
  };
  std::unique_ptr<float, Free> memory_;
  size_t floats_ = 0;
};

}  // namespace layoutopt::runtime
