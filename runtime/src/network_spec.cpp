#include "layoutopt/runtime/network_spec.h"

#include <string>

#include "layoutopt/runtime/error.h"

namespace layoutopt::runtime {

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;  // clang 14 does not deduce aggregate bases itself

// Sizes far beyond any network but far below int64 overflow, so sums of two never wrap.
constexpr int64_t kMaxFloats = int64_t{1} << 40;

[[noreturn]] void fail(const std::string& what) { throw KernelError("network spec: " + what); }

void check_size(int64_t value, const std::string& what) {
  if (value < 0 || value > kMaxFloats) fail(what + " is " + std::to_string(value));
}

int64_t elements(const std::vector<int64_t>& shape, const std::string& what) {
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent <= 0 || extent > kMaxFloats / count) fail(what + " has an invalid extent " + std::to_string(extent));
    count *= extent;
  }
  return count;
}

/// Checks everything a step refers to against the spec's tables.
class StepChecker {
 public:
  explicit StepChecker(const NetworkSpec& spec) : spec_(spec) {}

  void check(const StepSpec& step) {
    where_ = "step '" + step.name + "'";
    std::visit(Overloaded{[&](const KernelStep& s) { check_kernel_step(s); },
                          [&](const ConcatStep& s) { check_concat(s); },
                          [&](const TransformStep& s) { check_transform(s); },
                          [&](const ReferenceStep& s) {
                            for (SlotId slot : s.inputs) check_slot(slot);
                            check_slot(s.output);
                          }},
               step.action);
  }

  void check_slot(SlotId slot) const {
    if (slot < 0 || static_cast<size_t>(slot) >= spec_.slots.size())
      fail(where_ + " refers to slot " + std::to_string(slot) + " of " + std::to_string(spec_.slots.size()));
  }

  void set_where(std::string where) { where_ = std::move(where); }

 private:
  void check_operand(const Operand& operand) const {
    switch (operand.source) {
      case Operand::Source::none: return;
      case Operand::Source::slot: check_slot(operand.index); return;
      case Operand::Source::constant:
        if (operand.index < 0 || static_cast<size_t>(operand.index) >= spec_.constants.size())
          fail(where_ + " refers to constant " + std::to_string(operand.index) + " of " +
               std::to_string(spec_.constants.size()));
        return;
    }
    fail(where_ + " has an operand of unknown source");
  }

  /// The operand a stage argument takes from its kernel's caller, or nullptr for scratch/none.
  static const Operand* caller_operand(StageOperand source, const std::array<Operand, kKernelPointers>& args) {
    switch (source) {
      case StageOperand::input: return &args[0];
      case StageOperand::weight: return &args[1];
      case StageOperand::bias: return &args[2];
      case StageOperand::residual: return &args[3];
      case StageOperand::output: return &args[4];
      case StageOperand::scale: return &args[5];
      case StageOperand::none:
      case StageOperand::scratch0:
      case StageOperand::scratch1: return nullptr;
    }
    return nullptr;
  }

  /// A kernel whose every needed argument is given: Kernel::check must not throw in a run,
  /// where a team of threads could not carry the exception out.
  void check_kernel(const KernelSpec& kernel, const std::array<Operand, kKernelPointers>& args) const {
    const std::string where = where_ + " kernel '" + kernel.name + "'";
    if (kernel.stages.empty() || kernel.stages.size() > Kernel::kMaxStages)
      fail(where + " has " + std::to_string(kernel.stages.size()) + " stages");
    if (kernel.scratch_floats.size() > 2) fail(where + " has more than two scratch buffers");
    for (int64_t floats : kernel.scratch_floats) check_size(floats, where + " scratch");
    check_size(kernel.units, where + " units");
    for (const StageSpec& stage : kernel.stages) {
      if (stage.symbol.empty()) fail(where + " has a stage without a symbol");
      check_size(stage.work_items, where + " work items");
      const bool needed[kKernelPointers] = {true, stage.needs_weight, stage.needs_bias, stage.needs_residual, true,
                                            stage.needs_scale};
      for (size_t i = 0; i < kKernelPointers; ++i) {
        const StageOperand source = stage.operands[i];
        if (source > StageOperand::scratch1) fail(where + " has a stage operand of unknown source");
        const size_t buffer = source == StageOperand::scratch0 ? 0 : source == StageOperand::scratch1 ? 1 : 2;
        if (buffer < 2 && buffer >= kernel.scratch_floats.size()) fail(where + " reads a scratch buffer it lacks");
        const Operand* from_caller = caller_operand(source, args);
        const bool given = source != StageOperand::none && (from_caller == nullptr ||
                                                            from_caller->source != Operand::Source::none);
        if (needed[i] && !given) fail(where + " stage " + stage.symbol + " lacks pointer argument " + std::to_string(i));
      }
    }
  }

  void check_kernel_step(const KernelStep& step) const {
    for (const Operand* operand : {&step.input, &step.weight, &step.bias, &step.residual, &step.scale})
      check_operand(*operand);
    check_slot(step.output);
    check_kernel(step.kernel, {step.input, step.weight, step.bias, step.residual, Operand::slot(step.output), step.scale});
  }

  void check_concat(const ConcatStep& step) const {
    if (step.kernels.size() != step.inputs.size() ||
        (!step.slice_offsets.empty() && step.slice_offsets.size() != step.inputs.size()))
      fail(where_ + " has " + std::to_string(step.kernels.size()) + " copy kernels for " +
           std::to_string(step.inputs.size()) + " inputs and " + std::to_string(step.slice_offsets.size()) + " offsets");
    check_slot(step.output);
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      check_slot(step.inputs[i]);
      check_kernel(step.kernels[i], {Operand::slot(step.inputs[i]), {}, {}, {}, Operand::slot(step.output), {}});
    }
  }

  void check_transform(const TransformStep& step) const {
    check_slot(step.input);
    check_slot(step.output);
    const int64_t count = elements(step.shape, where_ + " shape");
    for (SlotId slot : {step.input, step.output})
      if (spec_.slots[static_cast<size_t>(slot)].floats != count)
        fail(where_ + " transforms " + std::to_string(count) + " floats, but slot " + std::to_string(slot) + " holds " +
             std::to_string(spec_.slots[static_cast<size_t>(slot)].floats));
    // check_fits, not a LayoutTransform: building one sizes its tables by the shape.
    try {
      const layout::Layout canonical = layout::canonical_data_layout(step.shape.size());
      step.from.check_fits(step.shape, canonical);
      step.to.check_fits(step.shape, canonical);
    } catch (const layout::LayoutError& e) {
      fail(where_ + ": " + e.what());
    }
  }

  const NetworkSpec& spec_;
  std::string where_;
};

void check_memory(const NetworkSpec& spec) {
  check_size(spec.arena_floats, "the arena size");
  check_size(spec.weight_floats, "the weight image size");
  for (int64_t offset : spec.storage_offsets) check_size(offset, "a storage offset");
  for (size_t s = 0; s < spec.slots.size(); ++s) {
    const SlotSpec& slot = spec.slots[s];
    const std::string where = "slot " + std::to_string(s);
    if (slot.storage < 0 || static_cast<size_t>(slot.storage) >= spec.storage_offsets.size())
      fail(where + " lives in storage " + std::to_string(slot.storage) + " of " + std::to_string(spec.storage_offsets.size()));
    check_size(slot.floats, where + " size");
    check_size(slot.offset, where + " offset");
    if (spec.storage_offsets[static_cast<size_t>(slot.storage)] + slot.offset + slot.floats > spec.arena_floats)
      fail(where + " reaches past the arena's " + std::to_string(spec.arena_floats) + " floats");
  }
  for (size_t c = 0; c < spec.constants.size(); ++c) {
    const ConstantRange& constant = spec.constants[c];
    check_size(constant.offset, "constant " + std::to_string(c) + " offset");
    check_size(constant.floats, "constant " + std::to_string(c) + " size");
    if (constant.offset + constant.floats > spec.weight_floats)
      fail("constant " + std::to_string(c) + " reaches past the weight image's " + std::to_string(spec.weight_floats) +
           " floats");
  }
}

}  // namespace

std::vector<SlotId> step_reads(const StepAction& action) {
  return std::visit(
      Overloaded{[](const KernelStep& s) {
                   std::vector<SlotId> reads;
                   for (const Operand* operand : {&s.input, &s.weight, &s.bias, &s.residual, &s.scale})
                     if (operand->source == Operand::Source::slot) reads.push_back(operand->index);
                   return reads;
                 },
                 [](const ConcatStep& s) { return s.inputs; },
                 [](const TransformStep& s) { return std::vector<SlotId>{s.input}; },
                 [](const ReferenceStep& s) { return s.inputs; }},
      action);
}

SlotId step_write(const StepAction& action) {
  return std::visit([](const auto& s) { return s.output; }, action);
}

void validate(const NetworkSpec& spec) {
  check_memory(spec);
  StepChecker checker(spec);
  for (const StepSpec& step : spec.steps) checker.check(step);
  for (const auto* tensors : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& tensor : *tensors) {
      checker.set_where("tensor '" + tensor.name + "'");
      checker.check_slot(tensor.slot);
      const int64_t count = elements(tensor.shape, "tensor '" + tensor.name + "'");
      if (spec.slots[static_cast<size_t>(tensor.slot)].floats != count)
        fail("tensor '" + tensor.name + "' has " + std::to_string(count) + " elements, its slot " +
             std::to_string(spec.slots[static_cast<size_t>(tensor.slot)].floats));
    }
  validate_forks(spec);
}

}  // namespace layoutopt::runtime
