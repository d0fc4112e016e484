#pragma once
// The text form of what ranks send each other (JSON, read back only by the same build of
// layoutopt on the other ranks): host facts with the task list, assignments (configs and
// transform passes) and their results.

#include <string>
#include <vector>

#include "layoutopt/distributed/host_facts.h"
#include "layoutopt/distributed/transport.h"

namespace layoutopt::mpi {

/// What a rank tells rank 0 before timing: its host and the tasks it would measure.
struct RankIntroduction {
  distributed::HostFacts facts;
  std::vector<std::string> tasks;  ///< TaskKey::describe() of each task, in order
};

[[nodiscard]] std::string encode(const RankIntroduction& introduction);
[[nodiscard]] RankIntroduction decode_introduction(const std::string& text);

[[nodiscard]] std::string encode(const distributed::Assignment& work);
[[nodiscard]] distributed::Assignment decode_assignment(const std::string& text);

/// A completion's assignment and result (the worker is the sending rank).
[[nodiscard]] std::string encode(const distributed::Assignment& work, const distributed::WorkResult& result);
[[nodiscard]] distributed::Completion decode_completion(int worker, const std::string& text);

}  // namespace layoutopt::mpi
