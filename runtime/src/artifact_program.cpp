#include "layoutopt/runtime/artifact_program.h"

#include <cstring>

#include "byte_stream.h"
#include "layoutopt/runtime/checksum.h"
#include "layoutopt/runtime/error.h"

namespace layoutopt::runtime {

namespace {

using detail::ByteReader;
using detail::ByteWriter;

constexpr char kMagic[8] = {'L', 'O', 'P', 'R', 'O', 'G', 'R', 'M'};
constexpr size_t kHeaderBytes = sizeof kMagic + 4 + 8 + 8;
constexpr const char* kFile = "program.bin";

/// Step kinds in the file; ReferenceStep has none (an artifact cannot run one).
enum class StepTag : uint8_t { kernel, concat, transform };

// ---- writing ----

void write_shape(ByteWriter& w, const std::vector<int64_t>& values) {
  w.count(values.size());
  for (int64_t v : values) w.integer(v);
}

void write_operand(ByteWriter& w, const Operand& operand) {
  w.integer(static_cast<uint8_t>(operand.source));
  w.integer(operand.index);
}

void write_kernel(ByteWriter& w, const KernelSpec& kernel) {
  w.string(kernel.name);
  w.count(kernel.stages.size());
  for (const StageSpec& stage : kernel.stages) {
    w.string(stage.symbol);
    for (StageOperand operand : stage.operands) w.integer(static_cast<uint8_t>(operand));
    w.integer(stage.work_items);
    for (bool flag : {stage.whole_each_unit, stage.needs_weight, stage.needs_bias, stage.needs_residual, stage.needs_scale})
      w.boolean(flag);
  }
  write_shape(w, kernel.scratch_floats);
  w.integer(kernel.units);
}

void write_step(ByteWriter& w, const StepSpec& step) {
  w.string(step.name);
  w.string(step.detail);
  if (const auto* s = std::get_if<KernelStep>(&step.action)) {
    w.integer(static_cast<uint8_t>(StepTag::kernel));
    write_kernel(w, s->kernel);
    for (const Operand* operand : {&s->input, &s->weight, &s->bias, &s->residual, &s->scale}) write_operand(w, *operand);
    w.integer(s->output);
  } else if (const auto* c = std::get_if<ConcatStep>(&step.action)) {
    w.integer(static_cast<uint8_t>(StepTag::concat));
    w.count(c->kernels.size());
    for (const KernelSpec& kernel : c->kernels) write_kernel(w, kernel);
    w.count(c->inputs.size());
    for (SlotId input : c->inputs) w.integer(input);
    w.integer(c->output);
    write_shape(w, c->slice_offsets);
  } else if (const auto* t = std::get_if<TransformStep>(&step.action)) {
    w.integer(static_cast<uint8_t>(StepTag::transform));
    write_shape(w, t->shape);
    w.string(t->from.str());
    w.string(t->to.str());
    w.integer(t->input);
    w.integer(t->output);
  } else {
    throw ArtifactError("step '" + step.name + "' runs the reference implementation of " +
                        std::get<ReferenceStep>(step.action).op +
                        " (no blocked kernel for it here); an ahead-of-time artifact cannot hold it");
  }
}

void write_tensors(ByteWriter& w, const std::vector<TensorSpec>& tensors) {
  w.count(tensors.size());
  for (const TensorSpec& tensor : tensors) {
    w.string(tensor.name);
    write_shape(w, tensor.shape);
    w.integer(tensor.slot);
  }
}

void write_network(ByteWriter& w, const NetworkSpec& spec) {
  w.string(spec.name);
  w.count(spec.slots.size());
  for (const SlotSpec& slot : spec.slots) {
    w.integer(slot.storage);
    w.integer(slot.floats);
    w.integer(slot.offset);
  }
  write_shape(w, spec.storage_offsets);
  w.integer(spec.arena_floats);
  w.count(spec.constants.size());
  for (const ConstantRange& constant : spec.constants) {
    w.integer(constant.offset);
    w.integer(constant.floats);
  }
  w.integer(spec.weight_floats);
  w.count(spec.steps.size());
  for (const StepSpec& step : spec.steps) write_step(w, step);
  write_tensors(w, spec.inputs);
  write_tensors(w, spec.outputs);
  w.count(spec.forks.size());
  for (const Fork& fork : spec.forks) {
    w.integer(fork.begin);
    w.integer(fork.end);
    w.count(fork.lanes.size());
    for (int32_t lane : fork.lanes) w.integer(lane);
  }
}

// ---- reading ----

std::vector<int64_t> read_shape(ByteReader& r, const char* what) {
  std::vector<int64_t> values(r.count(what));
  for (int64_t& v : values) v = r.integer<int64_t>(what);
  return values;
}

Operand read_operand(ByteReader& r) {
  Operand operand;
  operand.source = r.enumerator(Operand::Source::constant, "operand source");
  operand.index = r.integer<int32_t>("operand index");
  return operand;
}

KernelSpec read_kernel(ByteReader& r) {
  KernelSpec kernel;
  kernel.name = r.string("kernel name");
  kernel.stages.resize(r.count("kernel stages"));
  for (StageSpec& stage : kernel.stages) {
    stage.symbol = r.string("stage symbol");
    for (StageOperand& operand : stage.operands) operand = r.enumerator(StageOperand::scratch1, "stage operand");
    stage.work_items = r.integer<int64_t>("work items");
    for (bool* flag : {&stage.whole_each_unit, &stage.needs_weight, &stage.needs_bias, &stage.needs_residual,
                       &stage.needs_scale})
      *flag = r.boolean("stage flag");
  }
  kernel.scratch_floats = read_shape(r, "scratch sizes");
  kernel.units = r.integer<int64_t>("units");
  return kernel;
}

layout::Layout read_layout(ByteReader& r) {
  const std::string text = r.string("layout");
  try {
    return layout::Layout::parse(text);
  } catch (const layout::LayoutError& e) {
    r.fail("layout '" + text + "': " + e.what());
  }
}

StepAction read_action(ByteReader& r) {
  switch (r.enumerator(StepTag::transform, "step kind")) {
    case StepTag::kernel: {
      KernelStep s;
      s.kernel = read_kernel(r);
      for (Operand* operand : {&s.input, &s.weight, &s.bias, &s.residual, &s.scale}) *operand = read_operand(r);
      s.output = r.integer<SlotId>("output slot");
      return s;
    }
    case StepTag::concat: {
      ConcatStep s;
      s.kernels.resize(r.count("concat kernels"));
      for (KernelSpec& kernel : s.kernels) kernel = read_kernel(r);
      s.inputs.resize(r.count("concat inputs"));
      for (SlotId& input : s.inputs) input = r.integer<SlotId>("input slot");
      s.output = r.integer<SlotId>("output slot");
      s.slice_offsets = read_shape(r, "slice offsets");
      return s;
    }
    case StepTag::transform: {
      TransformStep s;
      s.shape = read_shape(r, "transform shape");
      s.from = read_layout(r);
      s.to = read_layout(r);
      s.input = r.integer<SlotId>("input slot");
      s.output = r.integer<SlotId>("output slot");
      return s;
    }
  }
  r.fail("unknown step kind");
}

std::vector<TensorSpec> read_tensors(ByteReader& r) {
  std::vector<TensorSpec> tensors(r.count("tensors"));
  for (TensorSpec& tensor : tensors) {
    tensor.name = r.string("tensor name");
    tensor.shape = read_shape(r, "tensor shape");
    tensor.slot = r.integer<SlotId>("tensor slot");
  }
  return tensors;
}

NetworkSpec read_network(ByteReader& r) {
  NetworkSpec spec;
  spec.name = r.string("network name");
  spec.slots.resize(r.count("slots"));
  for (SlotSpec& slot : spec.slots) {
    slot.storage = r.integer<StorageId>("slot storage");
    slot.floats = r.integer<int64_t>("slot size");
    slot.offset = r.integer<int64_t>("slot offset");
  }
  spec.storage_offsets = read_shape(r, "storage offsets");
  spec.arena_floats = r.integer<int64_t>("arena size");
  spec.constants.resize(r.count("constants"));
  for (ConstantRange& constant : spec.constants) {
    constant.offset = r.integer<int64_t>("constant offset");
    constant.floats = r.integer<int64_t>("constant size");
  }
  spec.weight_floats = r.integer<int64_t>("weight image size");
  spec.steps.resize(r.count("steps"));
  for (StepSpec& step : spec.steps) {
    step.name = r.string("step name");
    step.detail = r.string("step detail");
    step.action = read_action(r);
  }
  spec.inputs = read_tensors(r);
  spec.outputs = read_tensors(r);
  spec.forks.resize(r.count("forks"));
  for (Fork& fork : spec.forks) {
    fork.begin = r.integer<int32_t>("fork begin");
    fork.end = r.integer<int32_t>("fork end");
    fork.lanes.resize(r.count("fork lanes"));
    for (int32_t& lane : fork.lanes) lane = r.integer<int32_t>("fork lane");
  }
  return spec;
}

ArtifactProgram read_payload(ByteReader& r) {
  ArtifactProgram program;
  program.target.triple = r.string("target triple");
  program.target.cpu = r.string("target cpu");
  program.target.features.resize(r.count("target features"));
  for (std::string& feature : program.target.features) feature = r.string("target feature");
  program.threads = r.integer<int32_t>("threads");
  program.weights.floats = r.integer<int64_t>("weights size");
  program.weights.checksum = r.integer<uint64_t>("weights checksum");
  program.network = read_network(r);
  if (!r.at_end()) r.fail("bytes after the program's end");
  return program;
}

}  // namespace

std::vector<std::byte> encode_program(const ArtifactProgram& program) {
  ByteWriter payload;
  payload.string(program.target.triple);
  payload.string(program.target.cpu);
  payload.count(program.target.features.size());
  for (const std::string& feature : program.target.features) payload.string(feature);
  payload.integer(program.threads);
  payload.integer(program.weights.floats);
  payload.integer(program.weights.checksum);
  write_network(payload, program.network);

  ByteWriter file;
  for (char c : kMagic) file.integer(static_cast<uint8_t>(c));
  file.integer(kProgramVersion);
  file.integer<uint64_t>(payload.bytes().size());
  file.integer(checksum(payload.bytes()));
  file.bytes().insert(file.bytes().end(), payload.bytes().begin(), payload.bytes().end());
  return std::move(file.bytes());
}

ArtifactProgram decode_program(std::span<const std::byte> bytes) {
  ByteReader header(bytes, kFile);
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw ArtifactError(std::string(kFile) + " is not a layoutopt program (its first bytes are not LOPROGRM)");
  for (size_t i = 0; i < sizeof kMagic; ++i) (void)header.integer<uint8_t>("magic");
  const auto version = header.integer<uint32_t>("version");
  if (version != kProgramVersion)
    throw ArtifactError(std::string(kFile) + " has format version " + std::to_string(version) + "; this runtime reads " +
                        std::to_string(kProgramVersion) + " (compile the model again)");
  const auto size = header.integer<uint64_t>("payload size");
  const auto expected = header.integer<uint64_t>("payload checksum");
  if (size != bytes.size() - kHeaderBytes)
    throw ArtifactError(std::string(kFile) + " is truncated or extended: its header says " + std::to_string(size) +
                        " bytes of program, the file holds " + std::to_string(bytes.size() - kHeaderBytes));
  const std::span<const std::byte> payload = bytes.subspan(kHeaderBytes);
  if (checksum(payload) != expected)
    throw ArtifactError(std::string(kFile) + " is damaged: its checksum does not match its contents");
  ByteReader reader(payload, kFile);
  ArtifactProgram program = read_payload(reader);
  try {
    validate(program.network);
  } catch (const KernelError& e) {
    throw ArtifactError(std::string(kFile) + " holds an inconsistent network: " + e.what());
  }
  return program;
}

}  // namespace layoutopt::runtime
