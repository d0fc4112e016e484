#pragma once
// The kernel a node runs, as its cost source chose it: what a compile step, the config
// confirmation and people need to know about a node's candidate beyond its layouts and time.
// A cost source fills it in (NodeCandidate::kernel), the plan carries it (PlanNode::kernel) and
// consumers look at it with std::get_if / std::visit.
//
// Data only. The plan file spells it as the node's "payload" string (plan.h); plan.cpp's
// to_json / plan_from_json are the only places that convert between the two:
//
//   UnspecifiedKernel  ""
//   TunedKernel        {"config_index":12,"family":"conv2d","kind":"tuned","knobs":{...},"task":"conv2d_NCHWc.x86"}
//   FlexibleKernel     {"kernel":{"desc":"...","kernel":"pool2d","schedule":{"ow_bn":8}},"kind":"flexible"}
//                      ("stand_in_for": "pad" inside "kernel" for an op timed on a stand-in)
//   CanonicalKernel    {"kind":"canonical"}

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace layoutopt::planning {

/// The cost source named no kernel: it priced layouts only (the analytic model, and the
/// sources of tests). A compile step has the layouts and nothing else to go by, so a conv or
/// dense planned this way cannot be compiled.
struct UnspecifiedKernel {
  friend auto operator<=>(const UnspecifiedKernel&, const UnspecifiedKernel&) = default;
};

/// One tuned config of a conv2d / depthwise / grouped conv / dense tuning task
/// (tuning::TuningTask): the config a compile step builds for the node.
struct TunedKernel {
  /// The task's name, which names its algorithm: "conv2d_NCHWc.x86",
  /// "conv2d_NCHWc_winograd.x86", "dense_nopack.x86", ... (a node may have several tasks).
  std::string task;
  std::string family;         ///< kernels::to_string(OpFamily): "conv2d", "dense", ...
  int64_t config_index = 0;   ///< position of the config in the task's config space
  std::map<std::string, int64_t> knobs;  ///< the config's knob values: what the compiler reads
  friend auto operator<=>(const TunedKernel&, const TunedKernel&) = default;
};

/// A layout-flexible operator's blocked kernel (pooling, elementwise, concat, ...), as
/// costs::time_flexible_ops compiled and timed it in one channel block.
struct FlexibleKernel {
  std::string kernel;  ///< "pool2d", "activation", "elementwise_binary", "concat", ...
  std::string desc;    ///< the kernel desc's str(): tensor shapes, block, operator
  std::map<std::string, int64_t> schedule;  ///< its schedule knobs ({"ow_bn": 8}, {"chunk": 64}); may be empty
  /// The node's operator when it was timed on this kernel as a stand-in moving the same data
  /// ("pad", "clip", "add"); empty when the kernel is the operator's own.
  std::string stand_in_for;
  auto operator<=>(const FlexibleKernel&) const = default;
};

/// No choice to make: the node runs as the graph says, in its canonical layouts (flatten,
/// reshape, softmax, ...: the layout-rigid operators of the measured costs).
struct CanonicalKernel {
  friend auto operator<=>(const CanonicalKernel&, const CanonicalKernel&) = default;
};

/// A default-constructed choice is UnspecifiedKernel: a candidate that names no kernel.
/// Ordered, so that a choice can be part of a map key.
using KernelChoice = std::variant<UnspecifiedKernel, TunedKernel, FlexibleKernel, CanonicalKernel>;

}  // namespace layoutopt::planning
