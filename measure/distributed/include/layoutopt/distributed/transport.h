#pragma once
// Transport: how the measurement farm (measurement_farm.h) talks to its workers, whatever
// carries the messages: MPI ranks (mpi/), threads of this process (thread_transport.h), or a
// scripted fake in tests. The farm only assigns work and waits for events; noticing that a
// worker died (a rank that stopped sending heartbeats) is the transport's job.

#include <chrono>
#include <cstdint>
#include <optional>
#include <variant>

#include "layoutopt/costs/transform_key.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/tuning/measure_record.h"

namespace layoutopt::distributed {

/// Config `config` of task number `task` (0-based, in the farm's task list, which every
/// worker extracts from the same model in the same order).
struct ConfigWork {
  int64_t task = 0;
  int64_t config = 0;
  friend bool operator==(const ConfigWork&, const ConfigWork&) = default;
};

/// One timing pass of one layout transform (costs/transform_timing.h). The key travels with
/// the work: which transforms a plan may need depends on rank 0's records alone.
struct TransformPass {
  costs::TransformKey key;
  friend bool operator==(const TransformPass&, const TransformPass&) = default;
};

/// One unit of work, handed to one worker.
using Assignment = std::variant<ConfigWork, TransformPass>;

/// What a unit of work gave: a measured config, or a transform's entry for one pass.
using WorkResult = std::variant<tuning::MeasureResult, costs::TransformEntry>;

/// A worker finished its assignment.
struct Completion {
  int worker = 0;
  Assignment work;
  WorkResult result;
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
