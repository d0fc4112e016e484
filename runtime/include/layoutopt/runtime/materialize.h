#pragma once
// Materialization: a NetworkSpec (plain data) turned into runnable steps, given where each
// kernel symbol's code is. The JIT path resolves symbols from its engine, an ahead-of-time
// artifact from its shared object; both get the same steps from the same spec.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "layoutopt/runtime/kernel.h"
#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::runtime {

/// Address of every slot, by SlotId, once the arena exists.
using SlotAddresses = std::vector<float*>;
/// Runs a step on the slots; called as `team` says (see Team): by one thread, or, for a step
/// that shares_team, by every thread of a team.
using StepBody = std::function<void(const SlotAddresses&, Team team)>;

struct RunnableStep {
  StepBody run;
  /// Whether `run` may be called with Team::calling: the step's work (compiled kernels, a
  /// transform) splits over the calling team. Reference steps fork their own.
  bool shares_team = false;
  /// Whether the step has nothing to do: a concat whose inputs were all written in place. It
  /// is skipped rather than run, since a team forked for it would cost more than a small kernel.
  bool does_nothing = false;
  /// Whether all its work runs in kernel bodies, which record busy time (busy_time.h):
  /// kernels and concat copies; a transform's or a reference step's work does not.
  bool records_busy_time = false;
};

/// The code of a kernel symbol; nullptr when unknown.
using FunctionResolver = std::function<KernelFunction(const std::string& symbol)>;
/// Code of the spec's ReferenceSteps, by step index (the kernels library makes them).
using ReferenceBodies = std::map<size_t, StepBody>;

/// One runnable step per spec step. Constants are read at `weights` (the weight image the
/// spec's ConstantRanges index); kernels with scratch share `scratch`. Throws KernelError
/// for an invalid spec (validate), a symbol the resolver does not know, or a ReferenceStep
/// without a body.
[[nodiscard]] std::vector<RunnableStep> materialize(const NetworkSpec& spec, const FunctionResolver& resolve,
                                                    const float* weights, const std::shared_ptr<KernelScratch>& scratch,
                                                    const ReferenceBodies& reference = {});

}  // namespace layoutopt::runtime
