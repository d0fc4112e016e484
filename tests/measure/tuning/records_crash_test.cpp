// Records crash-safety, for real: a child process appends records in a loop and tells the
// parent each record's number once append() has returned (the line written and synced); the
// parent kills it with SIGKILL at a seeded random moment. Round after round on one log, the
// reload must hold every reported record, at most the one record written but not yet
// reported, nothing partial, and exactly one skipped line per round the kill tore a line;
// the next round appends after a torn line without gluing onto it.

#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>

#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/tuning_session.h"
#include "tuning_fixtures.h"

using namespace layoutopt::tuning;
using layoutopt::testing::ScratchFile;
using layoutopt::testing::small_conv_task;

namespace {

// Every third record is 64 KiB (a long target string): a write() of many pages is where a
// kill can tear a line, as a single small write almost never is.
std::string target_of(int64_t number) {
  return "llvm -mcpu=crash-test" + std::string(number % 3 == 0 ? 64 * 1024 : 0, '.');
}

MeasureRecord numbered_record(int64_t number) {
  MeasureResult result;
  result.costs_s = {1e-4 + 1e-9 * static_cast<double>(number)};
  result.timestamp = 1.7e9;
  return make_record(target_of(number), small_conv_task(), number, result);
}

/// The child: appends records first, first + 1, ... to `path`, writing each number to
/// `report` after its append returned. Never returns.
[[noreturn]] void append_until_killed(const std::filesystem::path& path, int64_t first, int report) {
  try {
    RecordWriter writer(path);
    for (int64_t number = first;; ++number) {
      writer.append(numbered_record(number));
      if (::write(report, &number, sizeof number) != sizeof number) ::_exit(3);
    }
  } catch (...) {
    ::_exit(2);
  }
}

struct Round {
  int64_t last_reported = -1;  ///< -1: the child reported nothing
  bool tore_a_line = false;    ///< the log ends in a fragment of a record after the kill
};

/// Reads reported numbers until `wanted` arrived (or the child is gone), the last one in `last`.
void read_reports(int fd, int64_t wanted, int64_t& last) {
  while (last < wanted) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, 10'000) <= 0) return;  // the child stopped reporting: checked below
    int64_t number = 0;
    if (::read(fd, &number, sizeof number) != sizeof number) return;
    last = number;
  }
}

/// Whether the log ends in a fragment: a last line without its newline that is not a whole
/// record. (A write cut just before its newline leaves a whole record, which loads.)
bool ends_in_a_fragment(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.back() == '\n') return false;
  try {
    (void)parse_record(text.substr(text.rfind('\n') + 1));  // npos + 1 == 0: the whole text
    return false;
  } catch (const RecordError&) {
    return true;
  }
}

/// Starts a child appending from `first`, kills it once it reported a seeded number of
/// records plus a seeded pause, and drains every report it managed to send.
Round kill_a_writer(const std::filesystem::path& path, int64_t first, std::mt19937& random) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    append_until_killed(path, first, pipe_fds[1]);
  }
  ::close(pipe_fds[1]);
  Round round;
  const int64_t reports_before_kill = std::uniform_int_distribution<int64_t>(0, 12)(random);
  read_reports(pipe_fds[0], first + reports_before_kill - 1, round.last_reported);
  std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<int>(0, 3000)(random)));
  REQUIRE(::kill(child, SIGKILL) == 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK_MESSAGE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL), "the writer failed before the kill");
  read_reports(pipe_fds[0], INT64_MAX, round.last_reported);  // reports still in the pipe
  ::close(pipe_fds[0]);
  round.tore_a_line = ends_in_a_fragment(path);
  return round;
}

}  // namespace

TEST_CASE("kill -9 at random points: every reported record reloads, nothing partial, appends continue") {
  const ScratchFile log("killed.jsonl");
  int64_t next = 0;  // the first number of the next round: one past the last record in the log
  size_t torn = 0;
  for (const unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
    CAPTURE(seed);
    std::mt19937 random(seed);
    const Round round = kill_a_writer(log.path(), next, random);
    torn += round.tore_a_line ? 1 : 0;

    const LoadedLog loaded = load_record_log(log.path());
    // All records of all rounds so far, numbered 0, 1, ... in order: none lost, none glued.
    for (size_t i = 0; i < loaded.records.size(); ++i) {
      const MeasureRecord& record = loaded.records[i];
      REQUIRE(record.config_index == static_cast<int64_t>(i));
      CHECK(record.target == target_of(record.config_index));
      CHECK(record.result.costs_s == numbered_record(record.config_index).result.costs_s);
    }
    const auto count = static_cast<int64_t>(loaded.records.size());
    CHECK(count - 1 >= std::max(round.last_reported, next - 1));  // every reported record is there
    CHECK(count - 1 <= std::max(round.last_reported, next - 1) + 1);  // plus at most the unreported one
    // One skipped line per torn round, and the torn fragment is never read as a record.
    CHECK(loaded.issues.size() == torn);
    next = count;
  }
  MESSAGE(next << " records over 8 killed writers; " << torn << " kills tore a line");
}
