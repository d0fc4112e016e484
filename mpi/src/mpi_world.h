#pragma once
// The MPI world of this process: initialized on construction (MPI_THREAD_FUNNELED: only the
// main thread calls MPI; measuring threads never do), finalized on destruction. Errors are
// returned, not fatal (MPI_ERRORS_RETURN), so a send to a dead rank does not end rank 0.
// Messages are text (wire.h) with a tag saying what they are.

#include <optional>
#include <string>

namespace layoutopt::mpi {

enum class Tag : int { facts = 1, verdict = 2, assignment = 3, result = 4, heartbeat = 5, stop = 6 };

struct Message {
  int source = 0;
  Tag tag = Tag::facts;
  std::string text;
};

class MpiWorld {
 public:
  MpiWorld();
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  /// Sends `text` to `rank`; false when MPI reports an error (a dead rank).
  bool send(int rank, Tag tag, const std::string& text) const;
  /// The next message from `source` (any rank when nullopt), if one has arrived; never blocks.
  [[nodiscard]] std::optional<Message> poll(std::optional<int> source = std::nullopt) const;
  /// The next message from `source`, waiting for it (polling, so a waiting rank leaves the CPU
  /// to a measuring one: Open MPI's blocking receive spins).
  [[nodiscard]] Message receive(int source) const;
  /// Leave without MPI_Finalize: it waits for every rank (a PMIx fence), which with one rank
  /// dead may never end. mpirun --enable-recovery still exits 0.
  void skip_finalize() { finalize_ = false; }

 private:
  int rank_ = 0;
  int size_ = 1;
  bool finalize_ = true;
};

}  // namespace layoutopt::mpi
