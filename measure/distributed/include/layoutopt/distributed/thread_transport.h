#pragma once
// Workers as threads of this process, each with a work bench of its own: rank 0's own share of
// the measuring in an MPI run (its main thread keeps serving the other ranks meanwhile), and a
// transport for tests of the farm with real concurrency.

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "layoutopt/distributed/transport.h"
#include "layoutopt/distributed/work_bench.h"

namespace layoutopt::distributed {

/// Events from worker threads to the thread that waits for them.
class EventQueue {
 public:
  void push(WorkerEvent event);
  /// The oldest event, waiting up to `timeout` for one.
  [[nodiscard]] std::optional<WorkerEvent> pop(std::chrono::milliseconds timeout);

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<WorkerEvent> events_;
};

/// One thread performing the assignments it is given, one at a time, reporting to `events`
/// as worker `id`. Work that throws is reported as WorkerLost (it takes no more work).
class ThreadWorker {
 public:
  /// `bench` and `events` must outlive the worker.
  ThreadWorker(int id, WorkBench& bench, EventQueue& events);
  /// Finishes the assignment being measured, then joins the thread.
  ~ThreadWorker();
  ThreadWorker(const ThreadWorker&) = delete;
  ThreadWorker& operator=(const ThreadWorker&) = delete;

  void assign(const Assignment& work);

 private:
  void run();

  int id_;
  WorkBench& bench_;
  EventQueue& events_;
  std::mutex mutex_;
  std::condition_variable assigned_;
  std::optional<Assignment> next_;
  bool stopping_ = false;
  std::thread thread_;  ///< last: starts once the members it reads exist
};

class ThreadTransport : public Transport {
 public:
  /// One worker thread per bench (worker i works on benches[i]); the benches must outlive it.
  explicit ThreadTransport(const std::vector<WorkBench*>& benches);

  [[nodiscard]] int workers() const override { return static_cast<int>(workers_.size()); }
  void assign(int worker, const Assignment& work) override;
  [[nodiscard]] std::optional<WorkerEvent> wait(std::chrono::milliseconds timeout) override;

 private:
  EventQueue events_;  ///< first: the workers report to it until they are joined
  std::vector<std::unique_ptr<ThreadWorker>> workers_;
};

}  // namespace layoutopt::distributed
