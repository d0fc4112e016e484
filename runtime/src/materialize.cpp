#include "layoutopt/runtime/materialize.h"

#include <span>

#include "layoutopt/layout/transform.h"
#include "layoutopt/runtime/error.h"
#include "layoutopt/runtime/run_concat.h"

namespace layoutopt::runtime {

namespace {

/// A kernel argument: a fixed address (a constant, or null) or a slot's, known once the
/// arena exists.
struct Pointer {
  const float* fixed = nullptr;
  SlotId slot = -1;

  [[nodiscard]] float* at(const SlotAddresses& a) const {
    // The generated functions write through their output pointer alone.
    return slot >= 0 ? a[static_cast<size_t>(slot)] : const_cast<float*>(fixed);
  }
};

class Materializer {
 public:
  Materializer(const NetworkSpec& spec, const FunctionResolver& resolve, const float* weights,
               const std::shared_ptr<KernelScratch>& scratch, const ReferenceBodies& reference)
      : spec_(spec), resolve_(resolve), weights_(weights), scratch_(scratch), reference_(reference) {}

  RunnableStep step(size_t index) {
    const StepSpec& step = spec_.steps[index];
    if (const auto* s = std::get_if<KernelStep>(&step.action)) return {kernel_step(*s), true, false, true};
    if (const auto* s = std::get_if<ConcatStep>(&step.action))
      return {concat_step(*s), true, all_in_place(*s), true};
    if (const auto* s = std::get_if<TransformStep>(&step.action)) return {transform_step(*s), true};
    const auto body = reference_.find(index);
    if (body == reference_.end())
      throw KernelError("step '" + step.name + "' runs the reference implementation of " +
                        std::get<ReferenceStep>(step.action).op + ", which only the JIT path (with the graph) has");
    return {body->second, false};
  }

 private:
  std::shared_ptr<const CompiledFunction> function(const StageSpec& stage) {
    if (auto found = functions_.find(stage.symbol); found != functions_.end()) return found->second;
    CompiledFunction compiled;
    compiled.function = resolve_(stage.symbol);
    if (compiled.function == nullptr) throw KernelError("kernel symbol " + stage.symbol + " is not defined");
    compiled.work_items = stage.work_items;
    compiled.name = stage.symbol;
    compiled.needs_weight = stage.needs_weight;
    compiled.needs_bias = stage.needs_bias;
    compiled.needs_residual = stage.needs_residual;
    compiled.needs_scale = stage.needs_scale;
    auto shared = std::make_shared<const CompiledFunction>(std::move(compiled));
    functions_.emplace(stage.symbol, shared);
    return shared;
  }

  Kernel kernel(const KernelSpec& spec) {
    std::vector<KernelStage> stages;
    for (const StageSpec& stage : spec.stages) stages.push_back({function(stage), stage.operands, stage.whole_each_unit});
    Kernel kernel(spec.name, std::move(stages), spec.scratch_floats, spec.units);
    // The steps of a network run one after another: its kernels can share one scratch.
    if (!spec.scratch_floats.empty()) kernel.use_scratch(scratch_);
    return kernel;
  }

  [[nodiscard]] Pointer pointer(const Operand& operand) const {
    switch (operand.source) {
      case Operand::Source::none: return {};
      case Operand::Source::slot: return {nullptr, operand.index};
      case Operand::Source::constant:
        return {weights_ + spec_.constants[static_cast<size_t>(operand.index)].offset, -1};
    }
    return {};
  }

  StepBody kernel_step(const KernelStep& s) {
    const Pointer in = pointer(s.input), weight = pointer(s.weight), bias = pointer(s.bias),
                  residual = pointer(s.residual), scale = pointer(s.scale);
    const auto out = static_cast<size_t>(s.output);
    return [run = kernel(s.kernel), in, weight, bias, residual, scale, out](const SlotAddresses& a, Team team) {
      run({.input = in.at(a),
              .weight = weight.at(a),
              .bias = bias.at(a),
              .residual = residual.at(a),
              .output = a[out],
              .scale = scale.at(a)},
             team);
    };
  }

  StepBody concat_step(const ConcatStep& s) {
    std::vector<Kernel> kernels;
    for (const KernelSpec& spec : s.kernels) kernels.push_back(kernel(spec));
    return [kernels = std::move(kernels), reads = s.inputs, out = static_cast<size_t>(s.output),
            offsets = s.slice_offsets](const SlotAddresses& a, Team team) {
      std::vector<const float*> inputs;
      inputs.reserve(reads.size());
      for (SlotId read : reads) inputs.push_back(a[static_cast<size_t>(read)]);
      run_concat(kernels, inputs, a[out], offsets, team);
    };
  }

  /// Whether every input of the concat lies in its output at its slice: where run_concat
  /// copies nothing. Decided from the spec's addresses, as run_concat decides from the arena's.
  [[nodiscard]] bool all_in_place(const ConcatStep& s) const {
    if (s.slice_offsets.size() != s.inputs.size()) return false;
    for (size_t i = 0; i < s.inputs.size(); ++i)
      if (s.slice_offsets[i] < 0 || arena_offset(s.inputs[i]) != arena_offset(s.output) + s.slice_offsets[i]) return false;
    return true;
  }

  [[nodiscard]] int64_t arena_offset(SlotId id) const {
    const SlotSpec& slot = spec_.slots[static_cast<size_t>(id)];
    return spec_.storage_offsets[static_cast<size_t>(slot.storage)] + slot.offset;
  }

  static layout::TransformTeam transform_team(Team team) {
    switch (team) {
      case Team::own: return layout::TransformTeam::own;
      case Team::calling: return layout::TransformTeam::calling;
      case Team::alone: return layout::TransformTeam::alone;
    }
    return layout::TransformTeam::own;
  }

  static StepBody transform_step(const TransformStep& s) {
    const layout::LayoutTransform transform = [&] {
      try {
        return layout::LayoutTransform::for_activation(s.shape, s.from, s.to);
      } catch (const layout::LayoutError& e) {
        throw KernelError("transform " + s.from.str() + "->" + s.to.str() + ": " + e.what());
      }
    }();
    return [transform, in = static_cast<size_t>(s.input), out = static_cast<size_t>(s.output)](
               const SlotAddresses& a, Team team) {
      transform.run(a[in], a[out], transform_team(team));
    };
  }

  const NetworkSpec& spec_;
  const FunctionResolver& resolve_;
  const float* weights_;
  const std::shared_ptr<KernelScratch>& scratch_;
  const ReferenceBodies& reference_;
  std::map<std::string, std::shared_ptr<const CompiledFunction>> functions_;  // by symbol
};

}  // namespace

std::vector<RunnableStep> materialize(const NetworkSpec& spec, const FunctionResolver& resolve, const float* weights,
                                      const std::shared_ptr<KernelScratch>& scratch, const ReferenceBodies& reference) {
  validate(spec);
  Materializer materializer(spec, resolve, weights, scratch, reference);
  std::vector<RunnableStep> steps;
  steps.reserve(spec.steps.size());
  for (size_t s = 0; s < spec.steps.size(); ++s) steps.push_back(materializer.step(s));
  return steps;
}

}  // namespace layoutopt::runtime
