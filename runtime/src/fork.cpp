#include "layoutopt/runtime/fork.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>
#include <string>

#include "layoutopt/runtime/error.h"
#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::runtime {

namespace {

[[noreturn]] void fail(const std::string& what) { throw KernelError("network spec: " + what); }

/// Floats [begin, end) of one memory space that a step reads or writes.
struct Extent {
  int64_t space = 0;
  int64_t begin = 0, end = 0;
  bool write = false;
};

/// Where a slot's floats are compared: within its storage, as the builder made them (two
/// storages never share memory once the arena keeps both alive), or at its arena address.
enum class MemoryView { storages, arena };

Extent extent_of(const NetworkSpec& spec, SlotId id, bool write, MemoryView view) {
  const SlotSpec& slot = spec.slots[static_cast<size_t>(id)];
  if (view == MemoryView::storages) return {slot.storage, slot.offset, slot.offset + slot.floats, write};
  const int64_t at = spec.storage_offsets[static_cast<size_t>(slot.storage)] + slot.offset;
  return {0, at, at + slot.floats, write};
}

std::vector<Extent> step_extents(const NetworkSpec& spec, const StepSpec& step, MemoryView view) {
  std::vector<Extent> extents;
  for (SlotId read : step_reads(step.action)) extents.push_back(extent_of(spec, read, false, view));
  extents.push_back(extent_of(spec, step_write(step.action), true, view));
  return extents;
}

/// Whether two steps must keep their order: one writes memory the other reads or writes.
bool conflict(const std::vector<Extent>& a, const std::vector<Extent>& b) {
  for (const Extent& x : a)
    for (const Extent& y : b)
      if ((x.write || y.write) && x.space == y.space && x.begin < y.end && y.begin < x.end) return true;
  return false;
}

bool kernel_runs_alone(const KernelSpec& kernel) { return can_run_alone(kernel.scratch_floats, kernel.units); }

/// Whether a thread may run the step with Team::alone (see Kernel::can_run_alone).
bool runs_alone(const StepSpec& step) {
  if (const auto* k = std::get_if<KernelStep>(&step.action)) return kernel_runs_alone(k->kernel);
  if (const auto* c = std::get_if<ConcatStep>(&step.action))
    return std::all_of(c->kernels.begin(), c->kernels.end(), kernel_runs_alone);
  return std::holds_alternative<TransformStep>(step.action);
}

/// Groups of steps of one stretch that depend on each other (union-find by conflicts).
class StepGroups {
 public:
  explicit StepGroups(size_t steps) : parent_(steps) { std::iota(parent_.begin(), parent_.end(), size_t{0}); }
  size_t find(size_t s) {
    while (parent_[s] != s) s = parent_[s] = parent_[parent_[s]];
    return s;
  }
  void join(size_t a, size_t b) { parent_[find(a)] = find(b); }
  [[nodiscard]] size_t size() const { return parent_.size(); }

 private:
  std::vector<size_t> parent_;
};

/// A stretch's groups dealt to lanes, longest first, each to the least loaded lane.
struct LaneDeal {
  std::vector<int32_t> lane_of_step;  ///< per step of the stretch
  double longest_ms = 0;              ///< the most loaded lane's time
  size_t groups = 0;
};

/// Stretch [begin, end) of a program and its groups of dependent steps, grown one step at a
/// time towards the front (union-find indices count back from the end, so they stay put).
class Stretch {
 public:
  Stretch(const std::vector<std::vector<Extent>>& extents, int32_t end, int32_t max_steps)
      : extents_(extents), end_(end), begin_(end), groups_(static_cast<size_t>(max_steps)) {}

  /// Adds the step just before the stretch, which must stay within max_steps.
  void add_front() {
    --begin_;
    assert(end_ - begin_ <= static_cast<int32_t>(groups_.size()));
    for (int32_t later = begin_ + 1; later < end_; ++later)
      if (conflict(extents_[static_cast<size_t>(begin_)], extents_[static_cast<size_t>(later)]))
        groups_.join(index(begin_), index(later));
  }

  [[nodiscard]] LaneDeal deal(std::span<const double> lane_ms, int32_t lanes) {
    std::vector<double> load_of(static_cast<size_t>(end_ - begin_), -1.0);  // by group root
    for (int32_t s = begin_; s < end_; ++s) {
      double& load = load_of[groups_.find(index(s))];
      load = std::max(load, 0.0) + lane_ms[static_cast<size_t>(s)];
    }
    std::vector<std::pair<double, size_t>> loads;
    for (size_t root = 0; root < load_of.size(); ++root)
      if (load_of[root] >= 0) loads.emplace_back(load_of[root], root);
    std::sort(loads.begin(), loads.end(), std::greater<>());
    std::vector<double> lane_load(static_cast<size_t>(lanes), 0.0);
    std::vector<int32_t> lane_of_group(load_of.size(), 0);
    for (const auto& [ms, root] : loads) {
      const auto lightest = std::min_element(lane_load.begin(), lane_load.end());
      *lightest += ms;
      lane_of_group[root] = static_cast<int32_t>(lightest - lane_load.begin());
    }
    LaneDeal deal{{}, *std::max_element(lane_load.begin(), lane_load.end()), loads.size()};
    for (int32_t s = begin_; s < end_; ++s) deal.lane_of_step.push_back(lane_of_group[groups_.find(index(s))]);
    return deal;
  }

 private:
  [[nodiscard]] size_t index(int32_t step) const { return static_cast<size_t>(end_ - 1 - step); }

  const std::vector<std::vector<Extent>>& extents_;
  int32_t end_, begin_;
  StepGroups groups_;
};

}  // namespace

int32_t Fork::lane_count() const {
  return lanes.empty() ? 0 : *std::max_element(lanes.begin(), lanes.end()) + 1;
}

std::vector<Fork> plan_forks(const NetworkSpec& spec, std::span<const double> team_ms, std::span<const double> alone_ms,
                             int32_t lanes, const ForkCosts& costs) {
  const auto n = static_cast<int32_t>(spec.steps.size());
  if (team_ms.size() != spec.steps.size() || alone_ms.size() != spec.steps.size())
    throw KernelError("plan_forks: " + std::to_string(spec.steps.size()) + " steps, given " +
                      std::to_string(team_ms.size()) + " team and " + std::to_string(alone_ms.size()) + " alone times");
  if (lanes < 2) throw KernelError("plan_forks: " + std::to_string(lanes) + " lanes (at least 2 run side by side)");
  std::vector<std::vector<Extent>> extents;
  std::vector<double> lane_ms;
  for (int32_t s = 0; s < n; ++s) {
    extents.push_back(step_extents(spec, spec.steps[static_cast<size_t>(s)], MemoryView::storages));
    lane_ms.push_back(alone_ms[static_cast<size_t>(s)] * costs.contention);
  }
  // best[e]: the least time of steps [0, e); fork_from[e]: where a fork ending at e starts
  // (-1: step e - 1 runs with the whole team).
  std::vector<double> best(static_cast<size_t>(n) + 1, 0.0);
  std::vector<int32_t> fork_from(static_cast<size_t>(n) + 1, -1);
  for (int32_t e = 1; e <= n; ++e) {
    best[static_cast<size_t>(e)] = best[static_cast<size_t>(e - 1)] + team_ms[static_cast<size_t>(e - 1)];
    Stretch stretch(extents, e, costs.max_steps);
    for (int32_t b = e - 1; b >= std::max(0, e - costs.max_steps); --b) {
      if (!runs_alone(spec.steps[static_cast<size_t>(b)])) break;
      stretch.add_front();
      if (e - b < 2) continue;
      const LaneDeal deal = stretch.deal(lane_ms, lanes);
      if (deal.groups < 2) continue;
      // A fork pays its saving threshold as a cost, so two forks must save more than one.
      const double forked = best[static_cast<size_t>(b)] + deal.longest_ms + costs.min_saving_ms;
      if (forked < best[static_cast<size_t>(e)]) {
        best[static_cast<size_t>(e)] = forked;
        fork_from[static_cast<size_t>(e)] = b;
      }
    }
  }
  std::vector<Fork> forks;
  for (int32_t e = n; e > 0;) {
    const int32_t b = fork_from[static_cast<size_t>(e)];
    if (b < 0) {
      --e;
      continue;
    }
    Stretch stretch(extents, e, costs.max_steps);
    for (int32_t k = b; k < e; ++k) stretch.add_front();
    forks.push_back({b, e, stretch.deal(lane_ms, lanes).lane_of_step});
    e = b;
  }
  std::reverse(forks.begin(), forks.end());
  return forks;
}

void validate_forks(const NetworkSpec& spec) {
  int32_t previous_end = 0;
  for (size_t f = 0; f < spec.forks.size(); ++f) {
    const Fork& fork = spec.forks[f];
    const std::string where = "fork " + std::to_string(f) + " (steps " + std::to_string(fork.begin) + " to " +
                              std::to_string(fork.end) + ")";
    if (fork.begin < previous_end || fork.end <= fork.begin || static_cast<size_t>(fork.end) > spec.steps.size())
      fail(where + " is out of order, empty or past the " + std::to_string(spec.steps.size()) + " steps");
    if (fork.lanes.size() != static_cast<size_t>(fork.end - fork.begin))
      fail(where + " lists " + std::to_string(fork.lanes.size()) + " lanes");
    if (std::any_of(fork.lanes.begin(), fork.lanes.end(), [](int32_t lane) { return lane < 0; }))
      fail(where + " has a negative lane");
    if (std::all_of(fork.lanes.begin(), fork.lanes.end(), [&](int32_t lane) { return lane == fork.lanes.front(); }))
      fail(where + " runs everything in one lane");
    std::vector<std::vector<Extent>> extents;
    for (int32_t s = fork.begin; s < fork.end; ++s) {
      const StepSpec& step = spec.steps[static_cast<size_t>(s)];
      if (!runs_alone(step)) fail(where + ": step " + std::to_string(s) + " ('" + step.name + "') cannot run alone");
      extents.push_back(step_extents(spec, step, MemoryView::arena));
    }
    for (size_t i = 0; i < extents.size(); ++i)
      for (size_t j = i + 1; j < extents.size(); ++j)
        if (fork.lanes[i] != fork.lanes[j] && conflict(extents[i], extents[j]))
          fail(where + ": steps " + std::to_string(fork.begin + static_cast<int32_t>(i)) + " and " +
               std::to_string(fork.begin + static_cast<int32_t>(j)) +
               " run in different lanes but one writes memory the other touches");
    previous_end = fork.end;
  }
}

}  // namespace layoutopt::runtime
