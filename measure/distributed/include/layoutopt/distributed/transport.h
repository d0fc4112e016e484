#pragma once
// Transport: how the measurement farm (measurement_farm.h) talks to its workers, whatever
// carries the messages: MPI ranks (mpi/), threads of this process (thread_transport.h), or a
// scripted fake in tests. The farm only assigns work and waits for events; noticing that a
// worker died (a rank that stopped sending heartbeats) is the transport's job.

#include <chrono>
#include <cstdint>
#include <optional>
#include <variant>

#include "layoutopt/tuning/measure_record.h"

namespace layoutopt::distributed {

/// One unit of work: config `config` of task number `task` (0-based, in the farm's task list,
/// which every worker extracts from the same model in the same order).
struct Assignment {
  int64_t task = 0;
  int64_t config = 0;
  friend bool operator==(const Assignment&, const Assignment&) = default;
};

/// A worker measured its assignment.
struct Completion {
  int worker = 0;
  Assignment work;
  tuning::MeasureResult result;
};

/// A worker stopped answering (or its process ended): its assignment, if any, is not coming back.
struct WorkerLost {
  int worker = 0;
};

using WorkerEvent = std::variant<Completion, WorkerLost>;

class Transport {
 public:
  virtual ~Transport() = default;
  /// Workers are numbered 0 .. workers() - 1.
  [[nodiscard]] virtual int workers() const = 0;
  /// Hands `work` to an idle worker; returns at once.
  virtual void assign(int worker, const Assignment& work) = 0;
  /// The next event from any worker, or nullopt when none came within `timeout`.
  [[nodiscard]] virtual std::optional<WorkerEvent> wait(std::chrono::milliseconds timeout) = 0;
};

}  // namespace layoutopt::distributed
