#include "mpi_world.h"

#include <mpi.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace layoutopt::mpi {

namespace {

// Idle ranks look for messages this often: rare enough to cost no CPU, often enough that a
// measurement never waits noticeably for its assignment.
constexpr std::chrono::milliseconds idle_poll{1};

}  // namespace

MpiWorld::MpiWorld() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Init_thread failed");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED) throw std::runtime_error("MPI does not support MPI_THREAD_FUNNELED");
}

MpiWorld::~MpiWorld() {
  if (finalize_) MPI_Finalize();
}

bool MpiWorld::send(int rank, Tag tag, const std::string& text) const {
  return MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, rank, static_cast<int>(tag),
                  MPI_COMM_WORLD) == MPI_SUCCESS;
}

std::optional<Message> MpiWorld::poll(std::optional<int> source) const {
  int arrived = 0;
  MPI_Status status;
  if (MPI_Iprobe(source.value_or(MPI_ANY_SOURCE), MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status) != MPI_SUCCESS ||
      !arrived)
    return std::nullopt;
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  Message message{status.MPI_SOURCE, static_cast<Tag>(status.MPI_TAG), std::string(static_cast<size_t>(length), '\0')};
  MPI_Recv(message.text.data(), length, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return message;
}

Message MpiWorld::receive(int source) const {
  while (true) {
    if (std::optional<Message> message = poll(source)) return *message;
    std::this_thread::sleep_for(idle_poll);
  }
}

}  // namespace layoutopt::mpi
