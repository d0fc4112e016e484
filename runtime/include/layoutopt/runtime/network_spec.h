#pragma once
// NetworkSpec: a compiled network as plain data. Where every tensor lives (slots in storages
// at arena offsets), which constants the steps read (ranges of one weight image), and the
// steps in run order, each with the parameters its kind needs: a JIT kernel's stages by symbol
// name, a transform's shape and layouts, a concat's copy kernels and slice offsets.
//
// The JIT path (CompiledNetwork) and the ahead-of-time path (an artifact's program.bin) both
// turn a NetworkSpec into runnable steps with materialize() (materialize.h), so they run
// the same step list; they differ only in where a symbol's code comes from.

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "layoutopt/layout/layout.h"
#include "layoutopt/runtime/fork.h"
#include "layoutopt/runtime/kernel.h"

namespace layoutopt::runtime {

using SlotId = int32_t;
using StorageId = int32_t;
using ConstantId = int32_t;

/// One tensor in one layout: `floats` floats at `offset` floats into its storage (a concat
/// input placed in its slice of the concat's output sits at an offset).
struct SlotSpec {
  StorageId storage = -1;
  int64_t floats = 0;
  int64_t offset = 0;
  bool operator==(const SlotSpec&) const = default;
};

/// A constant: `floats` floats at `offset` floats into the weight image.
struct ConstantRange {
  int64_t offset = 0;
  int64_t floats = 0;
  bool operator==(const ConstantRange&) const = default;
};

/// Where a kernel argument comes from: nowhere, a slot of the arena, or a constant.
struct Operand {
  enum class Source : uint8_t { none, slot, constant };
  Source source = Source::none;
  int32_t index = -1;  ///< SlotId or ConstantId

  static Operand none() { return {}; }
  static Operand slot(SlotId id) { return {Source::slot, id}; }
  static Operand constant(ConstantId id) { return {Source::constant, id}; }
  bool operator==(const Operand&) const = default;
};

/// One generated function of a kernel and what it needs (see CompiledFunction, KernelStage).
struct StageSpec {
  std::string symbol;
  std::array<StageOperand, kKernelPointers> operands{};
  int64_t work_items = 0;
  bool whole_each_unit = false;
  bool needs_weight = true;
  bool needs_bias = false;
  bool needs_residual = false;
  bool needs_scale = false;
  bool operator==(const StageSpec&) const = default;
};

/// A Kernel as data: its stages, scratch buffer sizes and units (see Kernel's constructor).
/// Kernels with scratch use the network's one shared scratch.
struct KernelSpec {
  std::string name;
  std::vector<StageSpec> stages;
  std::vector<int64_t> scratch_floats;
  int64_t units = 0;
  bool operator==(const KernelSpec&) const = default;
};

/// A kernel on the slots: input, weight, bias, residual and scale from slots or constants.
struct KernelStep {
  KernelSpec kernel;
  Operand input, weight, bias, residual, scale;
  SlotId output = -1;
  bool operator==(const KernelStep&) const = default;
};

/// A blocked concat: one copy kernel per input (run_concat.h).
struct ConcatStep {
  std::vector<KernelSpec> kernels;
  std::vector<SlotId> inputs;
  SlotId output = -1;
  std::vector<int64_t> slice_offsets;  ///< per input, see concat_slice_offsets; -1 where none
  bool operator==(const ConcatStep&) const = default;
};

/// A layout transform of an activation of logical shape `shape`.
struct TransformStep {
  std::vector<int64_t> shape;
  layout::Layout from, to;
  SlotId input = -1;
  SlotId output = -1;
  bool operator==(const TransformStep&) const = default;
};

/// A node run by its reference implementation on canonical copies. Its code needs the graph
/// (the kernels library supplies it as a ReferenceBody when materializing); an artifact
/// cannot hold one, and compiling ahead of time refuses networks that have one.
struct ReferenceStep {
  std::string op;  ///< the operator's name, for messages
  std::vector<SlotId> inputs;
  SlotId output = -1;
  bool operator==(const ReferenceStep&) const = default;
};

using StepAction = std::variant<KernelStep, ConcatStep, TransformStep, ReferenceStep>;

struct StepSpec {
  std::string name;    ///< the node's name, or the tensor's name for a transform
  std::string detail;  ///< kernel symbol, "NCHW16c->NCHW8c (copy_runs)", "reference transpose"
  StepAction action;
  bool operator==(const StepSpec&) const = default;
};

/// A graph input or output: canonical layout, in its slot.
struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  SlotId slot = -1;
  bool operator==(const TensorSpec&) const = default;
};

struct NetworkSpec {
  std::string name;
  std::vector<SlotSpec> slots;
  std::vector<int64_t> storage_offsets;  ///< per storage, floats from the arena's start
  int64_t arena_floats = 0;
  std::vector<ConstantRange> constants;
  int64_t weight_floats = 0;  ///< size of the weight image the constants index
  std::vector<StepSpec> steps;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<Fork> forks;  ///< stretches of steps run side by side, in step order
  bool operator==(const NetworkSpec&) const = default;
};

/// The slots a step reads, in operand order (constants and absent operands left out).
[[nodiscard]] std::vector<SlotId> step_reads(const StepAction& action);
/// The slot a step writes.
[[nodiscard]] SlotId step_write(const StepAction& action);

/// Throws KernelError naming the first index out of range, size mismatch, malformed kernel
/// or fork that could race (validate_forks), so that materialize() and every run stay inside the arena and the weight image.
/// What a generated function does with its pointers is beyond data: a spec is trusted as far
/// as its kernels are.
void validate(const NetworkSpec& spec);

}  // namespace layoutopt::runtime
