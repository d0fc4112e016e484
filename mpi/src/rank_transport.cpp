#include "rank_transport.h"

#include "wire.h"

namespace layoutopt::mpi {

namespace {

// Rank 0's own worker is checked this often between looks at the other ranks.
constexpr std::chrono::milliseconds local_poll{1};

}  // namespace

RankTransport::RankTransport(const MpiWorld& world, distributed::WorkBench& local,
                             std::chrono::milliseconds heartbeat_timeout)
    : world_(world),
      heartbeat_timeout_(heartbeat_timeout),
      busy_(static_cast<size_t>(world.size()), false),
      heard_(static_cast<size_t>(world.size()), Clock::now()),
      local_(0, local, local_events_) {}

void RankTransport::assign(int worker, const distributed::Assignment& work) {
  if (worker == 0) return local_.assign(work);
  busy_[static_cast<size_t>(worker)] = true;
  heard_[static_cast<size_t>(worker)] = Clock::now();
  world_.send(worker, Tag::assignment, encode(work));  // a dead rank is noticed by its silence
}

std::optional<distributed::WorkerEvent> RankTransport::from_ranks() {
  while (std::optional<Message> message = world_.poll()) {
    const auto rank = static_cast<size_t>(message->source);
    heard_[rank] = Clock::now();
    if (message->tag != Tag::result) continue;  // a heartbeat
    busy_[rank] = false;
    return decode_completion(message->source, message->text);
  }
  return std::nullopt;
}

std::optional<distributed::WorkerEvent> RankTransport::silent_rank() {
  for (size_t rank = 1; rank < busy_.size(); ++rank)
    if (busy_[rank] && Clock::now() - heard_[rank] > heartbeat_timeout_) {
      busy_[rank] = false;
      return distributed::WorkerLost{static_cast<int>(rank)};
    }
  return std::nullopt;
}

std::optional<distributed::WorkerEvent> RankTransport::wait(std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  do {
    if (std::optional<distributed::WorkerEvent> event = local_events_.pop(local_poll)) return event;
    if (std::optional<distributed::WorkerEvent> event = from_ranks()) return event;
    if (std::optional<distributed::WorkerEvent> event = silent_rank()) return event;
  } while (Clock::now() < deadline);
  return std::nullopt;
}

}  // namespace layoutopt::mpi
