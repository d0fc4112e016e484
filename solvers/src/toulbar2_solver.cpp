// toulbar2: an independent exact weighted-CSP solver (Debian package `toulbar2`), run as a
// peer. The instance goes out in .wcsp form (costs scaled to integers), toulbar2 writes its
// best assignment, and the answer is re-evaluated on the original problem so its cost is
// exact. "Optimal" means toulbar2 printed "Optimum:" within the time limit; its proof is on
// the integer-scaled costs, which round each entry to 1e-6 ms.

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "builtin_solvers.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/wcsp_writer.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

constexpr const char* kToulbar2 = "/usr/bin/toulbar2";

/// A scratch folder removed when the solve ends, however it ends.
class ScratchFolder {
 public:
  ScratchFolder()
      : path_(std::filesystem::temp_directory_path() / ("layoutopt-toulbar2-" + std::to_string(::getpid()) + "-" +
                                                        std::to_string(counter_++))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

std::string run_command(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw SolverError("cannot start toulbar2");
  std::string output;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  pclose(pipe);
  return output;
}

Assignment read_solution(const std::filesystem::path& path, size_t nodes) {
  std::ifstream in(path);
  Assignment assignment;
  for (int value = 0; assignment.size() < nodes && in >> value;) assignment.push_back(value);
  if (assignment.size() != nodes) throw SolverError("toulbar2 found no solution within its time limit");
  return assignment;
}

// toulbar2's timer counts whole CPU seconds, at least one; no flag for kNoTimeLimit.
std::string timer_flag(double seconds) {
  if (!std::isfinite(seconds)) return "";
  return " -timer=" + std::to_string(std::max<long>(1, std::lround(seconds)));
}

class Toulbar2Solver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "toulbar2"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    if (!std::filesystem::exists(kToulbar2))
      throw SolverError("toulbar2 is not installed (apt-get install toulbar2)");
    const Stopwatch clock;
    const ScratchFolder scratch;
    {
      std::ofstream wcsp(scratch.path() / "problem.wcsp");
      write_wcsp(problem, wcsp);
    }
    const std::string output = run_command(std::string(kToulbar2) + " " + (scratch.path() / "problem.wcsp").string() +
                                           timer_flag(options.time_limit_seconds) + " -w=" +
                                           (scratch.path() / "solution").string() + " 2>&1");
    Solution solution;
    solution.assignment = read_solution(scratch.path() / "solution", problem.node_count());
    solution.optimal = output.find("Optimum: ") != std::string::npos;
    finish_solution(problem, solution);
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_toulbar2_solver() { return std::make_unique<Toulbar2Solver>(); }

}  // namespace layoutopt::solvers
