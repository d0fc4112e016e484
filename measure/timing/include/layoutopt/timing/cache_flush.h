#pragma once
// Cold-cache timing: before a run, write a buffer larger than the last-level cache from all
// threads so that neither the kernel's inputs nor its outputs are still cached. Optional in
// the timing policy: layer-by-layer inference keeps activations warm, weights often cold.

#include <cstddef>
#include <vector>

namespace layoutopt::timing {

/// Twice the last-level cache reported by the CPU (at least 32 MiB, at most 1 GiB, 64 MiB
/// when unknown). Writing it costs about bytes / memory bandwidth per flush.
size_t default_flush_bytes();

class CacheFlusher {
 public:
  explicit CacheFlusher(size_t bytes = default_flush_bytes());
  /// Writes one value per cache line of the whole buffer, in parallel with OpenMP; the value
  /// changes every call so the stores cannot be elided.
  void flush();
  [[nodiscard]] size_t bytes() const { return buffer_.size(); }

 private:
  std::vector<unsigned char> buffer_;
  unsigned char round_ = 0;
};

}  // namespace layoutopt::timing
