#pragma once
// Rank 0's transport: worker 0 is a thread of rank 0 working on rank 0's work bench (so
// rank 0 measures too while its main thread serves the others), worker r is rank r. A rank
// measuring sends a heartbeat every second; one silent for the heartbeat timeout while it has
// an assignment is reported lost (its process died or hangs).

#include <chrono>
#include <vector>

#include "layoutopt/distributed/thread_transport.h"
#include "layoutopt/distributed/transport.h"
#include "mpi_world.h"

namespace layoutopt::mpi {

class RankTransport : public distributed::Transport {
 public:
  using Clock = std::chrono::steady_clock;

  /// `local` (rank 0's own work bench) must outlive the transport.
  RankTransport(const MpiWorld& world, distributed::WorkBench& local, std::chrono::milliseconds heartbeat_timeout);

  [[nodiscard]] int workers() const override { return world_.size(); }
  void assign(int worker, const distributed::Assignment& work) override;
  [[nodiscard]] std::optional<distributed::WorkerEvent> wait(std::chrono::milliseconds timeout) override;

 private:
  [[nodiscard]] std::optional<distributed::WorkerEvent> from_ranks();
  [[nodiscard]] std::optional<distributed::WorkerEvent> silent_rank();

  const MpiWorld& world_;
  std::chrono::milliseconds heartbeat_timeout_;
  std::vector<bool> busy_;                 ///< by rank: has an assignment out
  std::vector<Clock::time_point> heard_;   ///< by rank: last message (or assignment)
  distributed::EventQueue local_events_;   ///< before local_: the thread reports to it
  distributed::ThreadWorker local_;
};

}  // namespace layoutopt::mpi
