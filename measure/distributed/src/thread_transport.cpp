#include "layoutopt/distributed/thread_transport.h"

#include <exception>

namespace layoutopt::distributed {

void EventQueue::push(WorkerEvent event) {
  {
    const std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  arrived_.notify_one();
}

std::optional<WorkerEvent> EventQueue::pop(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!arrived_.wait_for(lock, timeout, [this] { return !events_.empty(); })) return std::nullopt;
  WorkerEvent event = std::move(events_.front());
  events_.pop_front();
  return event;
}

ThreadWorker::ThreadWorker(int id, WorkBench& bench, EventQueue& events)
    : id_(id), bench_(bench), events_(events), thread_([this] { run(); }) {}

ThreadWorker::~ThreadWorker() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  assigned_.notify_one();
  thread_.join();
}

void ThreadWorker::assign(const Assignment& work) {
  {
    const std::lock_guard lock(mutex_);
    next_ = work;
  }
  assigned_.notify_one();
}

void ThreadWorker::run() {
  while (true) {
    Assignment work;
    {
      std::unique_lock lock(mutex_);
      assigned_.wait(lock, [this] { return stopping_ || next_.has_value(); });
      if (stopping_) return;
      work = *next_;
      next_.reset();
    }
    try {
      events_.push(Completion{id_, work, bench_.perform(work)});
    } catch (const std::exception&) {
      events_.push(WorkerLost{id_});
      return;
    }
  }
}

ThreadTransport::ThreadTransport(const std::vector<WorkBench*>& benches) {
  for (size_t i = 0; i < benches.size(); ++i)
    workers_.push_back(std::make_unique<ThreadWorker>(static_cast<int>(i), *benches[i], events_));
}

void ThreadTransport::assign(int worker, const Assignment& work) { workers_.at(static_cast<size_t>(worker))->assign(work); }

std::optional<WorkerEvent> ThreadTransport::wait(std::chrono::milliseconds timeout) { return events_.pop(timeout); }

}  // namespace layoutopt::distributed
