#pragma once
// Fork: a stretch of a network's steps run side by side. Each thread of the team runs its
// lane's steps alone (Team::alone), in program order, while the others run theirs; the team
// meets at one barrier at the stretch's end. Why: a step of a small map splits badly over
// threads, while independent branches each fill a core (docs/design/side-by-side.md). Forks
// are data of the NetworkSpec, chosen by plan_forks from measured step times and checked by
// validate.

#include <cstdint>
#include <span>
#include <vector>

namespace layoutopt::runtime {

struct NetworkSpec;

struct Fork {
  int32_t begin = 0, end = 0;    ///< steps [begin, end) of the spec
  std::vector<int32_t> lanes;    ///< per step of the stretch, its lane: the thread number that runs it
  /// Lanes the fork needs: its highest lane plus one. A team with fewer threads runs the
  /// stretch step by step instead.
  [[nodiscard]] int32_t lane_count() const;
  bool operator==(const Fork&) const = default;
};

/// What side-by-side running costs, beside the steps' own times.
struct ForkCosts {
  /// A step run alone beside the other lanes takes its time alone on an idle machine times
  /// this: the lanes share the last-level cache and the memory bandwidth, and a lane's first
  /// step reads what the whole team wrote. 1.1 planned forks that measured a third of the
  /// saving planned (docs/design/side-by-side.md).
  double contention = 1.30;
  /// Milliseconds a fork must save over running its steps with the whole team; counted as
  /// the fork's own cost, so of two plans that save alike the one with fewer forks wins.
  double min_saving_ms = 0.005;
  /// The longest stretch a fork may span.
  int32_t max_steps = 48;
};

/// The forks that run `spec`'s steps fastest on `lanes` threads, from each step's time with
/// the whole team (`team_ms`) and alone on one thread (`alone_ms`): a dynamic program over
/// stretches of the program, each stretch either step by step or a fork whose independent
/// groups of steps go to lanes longest first. Steps are independent when neither writes
/// memory the other touches, judged on storages as the builder made them: before the arena,
/// so a network built with these forks must keep every storage a fork touches alive over
/// the whole fork (build_network does). Only steps that can run alone join a fork (no
/// reference fallbacks, no kernel whose one scratch copy the team shares). Throws
/// KernelError for time lists of the wrong length or fewer than 2 lanes.
[[nodiscard]] std::vector<Fork> plan_forks(const NetworkSpec& spec, std::span<const double> team_ms,
                                           std::span<const double> alone_ms, int32_t lanes, const ForkCosts& costs = {});

/// Throws KernelError naming the first fault: forks out of order, overlapping or outside the
/// steps, a lane list of the wrong length, a negative lane or fewer than two lanes, a step
/// that cannot run alone, or two steps of different lanes where one writes arena memory the
/// other touches. Part of validate(NetworkSpec).
void validate_forks(const NetworkSpec& spec);

}  // namespace layoutopt::runtime
