#include "layoutopt/runtime/kernel.h"

#include <omp.h>

#include <algorithm>

#include "layoutopt/runtime/busy_time.h"
#include "layoutopt/runtime/error.h"

namespace layoutopt::runtime {

namespace {

constexpr std::array<StageOperand, kKernelPointers> kCallerOperands{
    StageOperand::input,  StageOperand::weight, StageOperand::bias,
    StageOperand::residual, StageOperand::output, StageOperand::scale};
constexpr const char* kArgumentNames[kKernelPointers] = {"input", "weight", "bias", "residual", "output", "scale"};

void run_items(const CompiledFunction& compiled, const std::array<float*, kKernelPointers>& p, int64_t begin,
               int64_t end) {
  const BusyTimer timer;
  compiled.function(p[0], p[1], p[2], p[3], p[4], p[5], begin, end);
}

int64_t team_size(Team team) {
  switch (team) {
    case Team::own: return omp_get_max_threads();
    case Team::calling: return omp_get_num_threads();
    case Team::alone: return 1;
  }
  return 1;
}

// Teams up to this size share out a call's items by claims; more threads than the machine
// has processors (a test's oversubscribed team) or than OpenMP's default split statically.
int max_claiming_threads() { return std::max(omp_get_max_threads(), omp_get_num_procs()); }

/// Calls body(begin, end) on ranges covering [0, items) between the team's threads, each
/// starting on its own contiguous share (see ItemClaims); returns once all are done. A calling
/// team shares `team_claims` and waits at `team_barrier`; a team of its own claims on the
/// stack, so concurrent own-team calls of one Kernel share nothing.
template <class Body>
void share_items(Team team, ItemClaims& team_claims, TeamBarrier& team_barrier, int64_t items, const Body& body) {
  if (team == Team::alone) {
    if (items > 0) body(0, items);
    return;
  }
  if (team == Team::calling) {
    team_claims.run(omp_get_thread_num(), omp_get_num_threads(), items, body);
    team_barrier.arrive_and_wait(omp_get_num_threads());
    return;
  }
  ItemClaims claims(max_claiming_threads());
#pragma omp parallel
  claims.run(omp_get_thread_num(), omp_get_num_threads(), items, body);
}

}  // namespace

float* KernelScratch::reserve(size_t index, int64_t floats) {
  while (buffers_.size() <= index) buffers_.emplace_back(0);
  if (static_cast<int64_t>(buffers_[index].size()) < floats) buffers_[index] = PageBlock(static_cast<size_t>(floats));
  return buffers_[index].data();
}

float* KernelScratch::data(size_t index) const {
  if (index >= buffers_.size()) throw KernelError("scratch buffer " + std::to_string(index) + " was never reserved");
  return buffers_[index].data();
}

int64_t KernelScratch::floats(size_t index) const {
  return index < buffers_.size() ? static_cast<int64_t>(buffers_[index].size()) : 0;
}

int64_t KernelScratch::bytes() const {
  int64_t bytes = 0;
  for (const PageBlock& buffer : buffers_) bytes += static_cast<int64_t>(buffer.size() * sizeof(float));
  return bytes;
}

Kernel::Kernel(std::shared_ptr<const CompiledFunction> compiled)
    : Kernel(compiled ? compiled->name : std::string(), {{compiled, kCallerOperands}}, {}) {}

Kernel::Kernel(std::string name, std::vector<KernelStage> stages, std::vector<int64_t> scratch_floats, int64_t units)
    : name_(std::move(name)),
      stages_(std::move(stages)),
      scratch_floats_(std::move(scratch_floats)),
      units_(units),
      team_claims_(max_claiming_threads()) {
  if (stages_.empty() || stages_.size() > kMaxStages)
    throw KernelError("Kernel " + name_ + ": " + std::to_string(stages_.size()) + " stages (1 to " +
                      std::to_string(kMaxStages) + " are supported)");
  for (const KernelStage& stage : stages_)
    if (!stage.compiled || stage.compiled->function == nullptr) throw KernelError("Kernel " + name_ + ": no compiled function");
  if (scratch_floats_.size() > 2) throw KernelError("Kernel " + name_ + ": at most two scratch buffers");
  if (units_ < 0) throw KernelError("Kernel " + name_ + ": negative unit count");
  for (const KernelStage& stage : stages_)
    if (units_ > 0 && !stage.whole_each_unit && stage.compiled->work_items % units_ != 0)
      throw KernelError("Kernel " + name_ + ": stage " + stage.compiled->name + "'s " +
                        std::to_string(stage.compiled->work_items) + " work items do not divide into " +
                        std::to_string(units_) + " units");
}

int64_t Kernel::scratch_copies(int64_t threads) const { return units_ > 0 ? threads : 1; }

bool Kernel::scratch_fits(int64_t threads) const {
  if (!scratch_) return false;
  for (size_t i = 0; i < scratch_floats_.size(); ++i)
    if (scratch_->floats(i) < scratch_floats_[i] * scratch_copies(threads)) return false;
  return true;
}

void Kernel::reserve_scratch(KernelScratch& scratch) const {
  for (size_t i = 0; i < scratch_floats_.size(); ++i)
    scratch.reserve(i, scratch_floats_[i] * scratch_copies(omp_get_max_threads()));
}

KernelScratch& Kernel::ensure_scratch() const {
  if (!scratch_) scratch_ = std::make_shared<KernelScratch>();
  reserve_scratch(*scratch_);  // grows only when the thread count has (kernels of units)
  return *scratch_;
}

void Kernel::use_scratch(const std::shared_ptr<KernelScratch>& shared) {
  reserve_scratch(*shared);
  scratch_ = shared;
}

double Kernel::compile_ms() const {
  double ms = 0;
  for (const KernelStage& stage : stages_) ms += stage.compiled->compile_ms;
  return ms;
}

Kernel::Pointers Kernel::resolve(const KernelStage& stage, const KernelArgs& args, Team team) const {
  Pointers pointers{};
  for (size_t i = 0; i < pointers.size(); ++i) {
    const StageOperand source = stage.operands[i];
    switch (source) {
      case StageOperand::none: pointers[i] = nullptr; break;
      // The generated functions write through their output pointer alone.
      case StageOperand::input: pointers[i] = const_cast<float*>(args.input); break;
      case StageOperand::weight: pointers[i] = const_cast<float*>(args.weight); break;
      case StageOperand::bias: pointers[i] = const_cast<float*>(args.bias); break;
      case StageOperand::residual: pointers[i] = const_cast<float*>(args.residual); break;
      case StageOperand::output: pointers[i] = args.output; break;
      case StageOperand::scale: pointers[i] = const_cast<float*>(args.scale); break;
      case StageOperand::scratch0:
      case StageOperand::scratch1: {
        const size_t buffer = source == StageOperand::scratch0 ? 0 : 1;
        if (buffer >= scratch_floats_.size()) throw KernelError(name_ + ": a stage reads a scratch buffer the kernel lacks");
        // A team's threads only read the scratch: sizing it is the own-team call's job.
        if (team == Team::calling && !scratch_fits(team_size(team)))
          throw KernelError(name_ + ": called by a team of " + std::to_string(team_size(team)) +
                            " threads before a call of its own at that count sized its scratch");
        if (team == Team::alone && !can_run_alone())
          throw KernelError(name_ + ": its one scratch copy is the whole team's, so no thread can run it alone");
        if (team == Team::alone && !scratch_fits(omp_get_num_threads()))
          throw KernelError(name_ + ": run alone in a team of " + std::to_string(omp_get_num_threads()) +
                            " threads before a call of its own at that count sized its scratch");
        pointers[i] = (team == Team::own ? ensure_scratch() : *scratch_).data(buffer);
        break;
      }
    }
  }
  return pointers;
}

void Kernel::check(const KernelStage& stage, const Pointers& p) const {
  const CompiledFunction& f = *stage.compiled;
  const bool needed[kKernelPointers] = {true, f.needs_weight, f.needs_bias, f.needs_residual, true, f.needs_scale};
  for (size_t i = 0; i < p.size(); ++i) {
    if (!needed[i] || p[i] != nullptr) continue;
    if (i == 2) throw KernelError(name_ + ": the epilogue adds a bias but no bias was passed");
    if (i == 3) throw KernelError(name_ + ": the epilogue adds a residual but no residual was passed");
    if (i == 5) throw KernelError(name_ + ": the kernel scales its input but no scale was passed");
    throw KernelError(name_ + ": " + kArgumentNames[i] + " must not be null");
  }
}

std::vector<std::span<float>> Kernel::scratch_regions() const {
  std::vector<std::span<float>> regions;
  if (!scratch_) return regions;
  // A kernel of units has a copy per thread: grown to the thread count now, as a run would,
  // so no region reaches past its buffer when threads were added since use_scratch.
  reserve_scratch(*scratch_);
  for (size_t i = 0; i < scratch_floats_.size(); ++i)
    regions.emplace_back(scratch_->data(i),
                         static_cast<size_t>(scratch_floats_[i] * scratch_copies(omp_get_max_threads())));
  return regions;
}

void Kernel::run_range(const KernelArgs& args, int64_t begin, int64_t end) const {
  if (stages_.size() != 1)
    throw KernelError(name_ + ": a multi-stage kernel runs whole (each stage reads all of the previous one's output)");
  const Pointers pointers = resolve(stages_.front(), args, Team::own);
  check(stages_.front(), pointers);
  begin = std::max<int64_t>(begin, 0);
  end = std::min(end, work_items());
  if (begin >= end) return;
  run_items(*stages_.front().compiled, pointers, begin, end);
}

void Kernel::operator()(const KernelArgs& args, Team team) const {
  // Every stage's arguments are checked before the first runs (no half-done call); a fixed
  // array keeps the allocator off this path, which every network step takes.
  StagePointers pointers{};
  for (size_t s = 0; s < stages_.size(); ++s) {
    pointers[s] = resolve(stages_[s], args, team);
    check(stages_[s], pointers[s]);
  }
  if (units_ > 0) {
    run_units(pointers, team);
    return;
  }
  run_stages(pointers, team);
}

void Kernel::run_stages(const StagePointers& pointers, Team team) const {
  for (size_t s = 0; s < stages_.size(); ++s) {
    const CompiledFunction& compiled = *stages_[s].compiled;
    const Pointers& p = pointers[s];
    // Each thread starts on one contiguous range, the kernel's item order deciding what a
    // range is: the thread's own output-channel blocks (each core reads half the weights) or
    // its own rows (each core reads the rows it wrote in the step before).
    share_items(team, team_claims_, team_barrier_, compiled.work_items,
                [&](int64_t begin, int64_t end) { run_items(compiled, p, begin, end); });
  }
}

Kernel::Pointers Kernel::in_copy(const KernelStage& stage, Pointers pointers, int64_t copy,
                                 const CopyPitch& pitch) const {
  for (size_t i = 0; i < pointers.size(); ++i) {
    const StageOperand source = stage.operands[i];
    if (source == StageOperand::scratch0 || source == StageOperand::scratch1)
      pointers[i] += copy * pitch[source == StageOperand::scratch0 ? 0 : 1];
  }
  return pointers;
}

Kernel::CopyPitch Kernel::copy_pitch(Team team) const {
  CopyPitch pitch{};
  for (size_t i = 0; i < scratch_floats_.size(); ++i)
    // Alone, kernels of other sizes run beside this one in the same buffers: copies then
    // sit at the buffer's share per thread of the team, which every kernel's copy fits
    // (the team's first run sized the buffers for each kernel's copies).
    pitch[i] = team == Team::alone ? scratch_->floats(i) / omp_get_num_threads() : scratch_floats_[i];
  return pitch;
}

void Kernel::run_units(const StagePointers& first_copy, Team team) const {
  // Units are shared out as run_stages' items: each thread starts on its contiguous share (a
  // thread's bands are the rows it wrote in the step before) and, once done, takes what a
  // slowed thread has left. Why not a static split: a band costs a few percent of the step,
  // and inception-v3's 37-band stem convs spent 6-13% of their time waiting at the barrier
  // so (docs/design/banded-winograd.md). Whoever runs a unit runs it in its own copy of the
  // scratch; a thread running alone takes every unit in its own.
  const CopyPitch pitch = copy_pitch(team);
  share_items(team, team_claims_, team_barrier_, units_, [&](int64_t begin, int64_t end) {
    const int64_t copy = omp_get_thread_num();
    StagePointers own{};
    for (size_t s = 0; s < stages_.size(); ++s) own[s] = in_copy(stages_[s], first_copy[s], copy, pitch);
    for (int64_t unit = begin; unit < end; ++unit)
      for (size_t s = 0; s < stages_.size(); ++s) {
        const KernelStage& stage = stages_[s];
        const int64_t items = stage.compiled->work_items;
        if (stage.whole_each_unit)
          run_items(*stage.compiled, own[s], 0, items);
        else
          run_items(*stage.compiled, own[s], items * unit / units_, items * (unit + 1) / units_);
      }
  });
}

}  // namespace layoutopt::runtime
