#include "network/program_builder.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "layoutopt/graph/topology.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/parallel_compile.h"
#include "layoutopt/layout/transform.h"
#include "network/node_lowering.h"

namespace layoutopt::kernels::network {

namespace {

using graph::ValueId;
using layout::Layout;

class ProgramBuilder {
 public:
  ProgramBuilder(const graph::Graph& graph, const NetworkSchedule& schedule)
      : graph_(graph), schedule_(schedule), produced_(graph.values().size(), -1) {}

  Program build() {
    check_schedule();
    // Long compiles first, on every core: the lowering below then goes node by node on one.
    compile_tuned_kernels(graph_, schedule_, compile_threads());
    for (ValueId input : graph_.inputs())
      program_.inputs.push_back(produce(input, layout::canonical_data_layout(shape_of(input).size())));
    for (graph::NodeId id : graph::topological_order(graph_)) add_node(id);
    for (ValueId output : graph_.outputs())
      program_.outputs.push_back(read(output, layout::canonical_data_layout(shape_of(output).size())));
    share_in_place_storage();
    place_concat_inputs();
    program_.views += layout_views_.size();
    program_.constant_bytes += program_.weights.bytes();
    return std::move(program_);
  }

 private:
  const graph::Shape& shape_of(ValueId value) const { return graph_.value(value).type.shape; }

  void check_schedule() const {
    if (schedule_.nodes.size() != graph_.nodes().size())
      throw KernelError("the schedule has " + std::to_string(schedule_.nodes.size()) + " nodes, graph '" +
                        graph_.name() + "' " + std::to_string(graph_.nodes().size()));
    for (size_t n = 0; n < graph_.nodes().size(); ++n) {
      const size_t inputs = graph::activation_inputs(graph_, static_cast<graph::NodeId>(n)).size();
      if (schedule_.nodes[n].inputs.size() != inputs)
        throw KernelError("node '" + graph_.nodes()[n].name + "' reads " + std::to_string(inputs) +
                          " activations, but its schedule gives " + std::to_string(schedule_.nodes[n].inputs.size()) +
                          " input layouts");
    }
  }

  SlotId new_slot(ValueId value, const Layout& layout, StorageId storage) {
    // Validates the layout against the shape (a block must divide the channels).
    layout.check_fits(shape_of(value), layout::canonical_data_layout(shape_of(value).size()));
    program_.slots.push_back({value, layout, storage, graph::element_count(shape_of(value))});
    return static_cast<SlotId>(program_.slots.size() - 1);
  }

  /// The slot a value's producer writes.
  SlotId produce(ValueId value, const Layout& layout) {
    const SlotId slot = new_slot(value, layout, program_.storages++);
    produced_[static_cast<size_t>(value)] = slot;
    return slot;
  }

  /// The slot holding `value` in `layout`: what its producer wrote when the memory matches,
  /// else a transform, made once and shared by every later reader.
  SlotId read(ValueId value, const Layout& layout) {
    const SlotId source = produced_[static_cast<size_t>(value)];
    const Slot& written = program_.slots[static_cast<size_t>(source)];
    if (layout::same_memory_order(shape_of(value), written.layout, layout)) {
      if (!(written.layout == layout)) layout_views_.emplace(value, layout.str());
      return source;
    }
    const auto key = std::make_pair(value, layout.str());
    if (auto found = transformed_.find(key); found != transformed_.end()) return found->second;
    const SlotId target = new_slot(value, layout, program_.storages++);
    transformed_.emplace(key, target);
    add_transform(source, target);
    return target;
  }

  void add_transform(SlotId source, SlotId target) {
    const Slot& from = program_.slots[static_cast<size_t>(source)];
    const Slot& to = program_.slots[static_cast<size_t>(target)];
    const layout::LayoutTransform transform = layout::LayoutTransform::for_activation(shape_of(from.value), from.layout, to.layout);
    Step step;
    step.spec.name = graph_.value(from.value).name;
    step.spec.detail = from.layout.str() + "->" + to.layout.str() + " (" + std::string(layout::to_string(transform.path())) + ")";
    step.spec.action = runtime::TransformStep{shape_of(from.value), from.layout, to.layout, source, target};
    step.inserted_transform = true;
    step.reads = {source};
    step.write = target;
    program_.steps.push_back(std::move(step));
  }

  void add_node(graph::NodeId id) {
    const graph::Node& node = graph_.node(id);
    const NodeSchedule& schedule = schedule_.nodes[static_cast<size_t>(id)];
    NodeOperands operands;
    const std::vector<ValueId> activations = graph::activation_inputs(graph_, id);
    for (size_t i = 0; i < activations.size(); ++i) {
      try {
        operands.reads.push_back(read(activations[i], schedule.inputs[i]));
      } catch (const layout::LayoutError& e) {
        throw KernelError("node '" + node.name + "' input " + std::to_string(i) + ": " + e.what());
      }
    }
    operands.write = static_cast<SlotId>(program_.slots.size());  // the slot made below
    LoweredNode lowered = lower_node(graph_, id, schedule, operands, program_.weights, program_.functions);
    program_.constant_bytes += lowered.constant_bytes;
    if (lowered.compile_ms > 0) program_.compile_ms[lowered.detail] = lowered.compile_ms;
    if (!lowered.action) {  // a view: the output lives in the input's memory
      const Slot input = slot(operands.reads.at(0));  // a copy: new_slot grows the slots
      const SlotId output = new_slot(node.output, schedule.output, input.storage);
      program_.slots[static_cast<size_t>(output)].offset = input.offset + lowered.view_offset;
      produced_[static_cast<size_t>(node.output)] = output;
      ++program_.views;
      return;
    }
    produce(node.output, schedule.output);
    if (lowered.reference_body) program_.reference.emplace(program_.steps.size(), std::move(lowered.reference_body));
    program_.steps.push_back({{node.name, lowered.detail, std::move(*lowered.action)}, operands.reads, operands.write,
                              lowered.in_place_operand, std::move(lowered.slice_offsets), false, id});
  }

  /// Lets a step write over its residual operand's storage when no later step reads that
  /// storage, the step reads it through no other operand (conv(x) + x must not overwrite
  /// the x it is still reading), it is not a graph input or output (those span the run), and
  /// the operand starts the storage (a view of a later slice of it would be written shifted).
  void share_in_place_storage() {
    std::vector<StorageLifetime> lifetime = storage_lifetimes(program_);
    for (size_t s = 0; s < program_.steps.size(); ++s) {
      const Step& step = program_.steps[s];
      if (step.in_place_operand < 0) continue;
      const Slot& residual = slot(step.reads[static_cast<size_t>(step.in_place_operand)]);
      const StorageId operand = residual.storage;
      const StorageId output = storage(step.write);
      const bool last_use = lifetime[static_cast<size_t>(operand)].last == static_cast<int>(s);
      const bool same_place = residual.floats == slot(step.write).floats && residual.offset == 0;
      if (!last_use || !same_place || pinned(operand) || operand == output || read_twice(step, operand)) continue;
      for (Slot& other : program_.slots)
        if (other.storage == output) other.storage = operand;
      lifetime[static_cast<size_t>(operand)].last = lifetime[static_cast<size_t>(output)].last;
      written_in_place_.insert(operand);
      ++program_.in_place;
    }
  }

  /// Lets the producers of a concat's inputs write straight into the concat's output, so
  /// the concat copies nothing (see concat_slice_offsets: batch 1, the output's block). An
  /// input's storage moves into the output's, shifted so that the input lands on its slice.
  /// Chained concats nest: the previous concat's storage, holding its own inputs already,
  /// moves whole into the next one's. A view moves with the tensor it views (a channel
  /// split's other half lands beside it: shufflenet's units), where every byte the moved
  /// tensors share with other data holds one of them at a time (`placement_shift`).
  /// Storages a step writes over in place, graph inputs and graph outputs keep their memory.
  void place_concat_inputs() {
    const std::vector<StepSpan> spans = slot_spans();
    for (const Step& step : program_.steps) {
      if (step.slice_offsets.empty()) continue;
      const StorageId output = storage(step.write);
      if (pinned(output) || written_in_place_.contains(output)) continue;
      const std::vector<SlotId> own = slots_in(output);  // the concat's output and its views
      for (size_t r = 0; r < step.reads.size(); ++r) {
        if (step.slice_offsets[r] < 0) continue;
        const std::optional<int64_t> shift = placement_shift(step, r, own, spans);
        if (!shift) continue;
        const StorageId input = storage(step.reads[r]);
        for (Slot& other : program_.slots) {
          if (other.storage != input) continue;
          other.storage = output;
          other.offset += *shift;
        }
        ++program_.placed_in_slices;
      }
    }
  }

  /// The steps between which a slot's bytes hold its data: from the step that writes it (a
  /// view: its storage's first step) to the last step that reads it.
  struct StepSpan {
    int first = 0;
    int last = 0;
    [[nodiscard]] bool before(const StepSpan& other) const { return last < other.first; }
  };

  std::vector<StepSpan> slot_spans() const {
    const std::vector<StorageLifetime> lifetime = storage_lifetimes(program_);
    std::vector<StepSpan> spans;
    for (const Slot& slot : program_.slots) {
      const int first = lifetime[static_cast<size_t>(slot.storage)].first;
      spans.push_back({first, first});
    }
    for (size_t s = 0; s < program_.steps.size(); ++s) {
      const int step = static_cast<int>(s);
      StepSpan& written = spans[static_cast<size_t>(program_.steps[s].write)];
      written = {step, std::max(written.last, step)};
      for (SlotId read : program_.steps[s].reads)
        spans[static_cast<size_t>(read)].last = std::max(spans[static_cast<size_t>(read)].last, step);
    }
    return spans;
  }

  std::vector<SlotId> slots_in(StorageId storage) const {
    std::vector<SlotId> ids;
    for (size_t s = 0; s < program_.slots.size(); ++s)
      if (program_.slots[s].storage == storage) ids.push_back(static_cast<SlotId>(s));
    return ids;
  }

  /// How far read `r`'s storage moves (floats added to its slots' offsets) to land the read
  /// on its slice of the concat's output, or nothing where it may not. Every moved slot must
  /// lie within the output, and where it meets a slot already there their data must not be
  /// alive at once, unless they are the same bytes: the read (or a view of the read's range)
  /// on its own slice of the concat's output (`own`).
  std::optional<int64_t> placement_shift(const Step& step, size_t r, const std::vector<SlotId>& own,
                                         const std::vector<StepSpan>& spans) const {
    const Slot& read = slot(step.reads[r]);
    const Slot& out = slot(step.write);
    if (read.storage == out.storage || pinned(read.storage) || written_in_place_.contains(read.storage))
      return std::nullopt;
    for (size_t other = 0; other < step.reads.size(); ++other)
      if (other != r && storage(step.reads[other]) == read.storage) return std::nullopt;  // concat(x, x)
    const int64_t shift = out.offset + step.slice_offsets[r] - read.offset;
    const std::vector<SlotId> there_already = slots_in(out.storage);
    for (SlotId moved : slots_in(read.storage)) {
      const Slot& m = slot(moved);
      const int64_t begin = m.offset + shift;
      if (begin < out.offset || begin + m.floats > out.offset + out.floats) return std::nullopt;
      const bool read_bytes = m.offset == read.offset && m.floats == read.floats;
      for (SlotId there : there_already) {
        const Slot& o = slot(there);
        if (begin >= o.offset + o.floats || o.offset >= begin + m.floats) continue;
        if (read_bytes && std::find(own.begin(), own.end(), there) != own.end()) continue;
        const StepSpan& a = spans[static_cast<size_t>(moved)];
        const StepSpan& b = spans[static_cast<size_t>(there)];
        if (!a.before(b) && !b.before(a)) return std::nullopt;
      }
    }
    return shift;
  }

  /// Whether `step` reads `storage` through an operand other than its in-place one.
  bool read_twice(const Step& step, StorageId storage) const {
    for (size_t r = 0; r < step.reads.size(); ++r)
      if (static_cast<int>(r) != step.in_place_operand && this->storage(step.reads[r]) == storage) return true;
    return false;
  }

  const Slot& slot(SlotId id) const { return program_.slots[static_cast<size_t>(id)]; }
  StorageId storage(SlotId id) const { return slot(id).storage; }

  bool pinned(StorageId storage) const {
    for (SlotId id : program_.inputs)
      if (this->storage(id) == storage) return true;
    for (SlotId id : program_.outputs)
      if (this->storage(id) == storage) return true;
    return false;
  }

  const graph::Graph& graph_;
  const NetworkSchedule& schedule_;
  Program program_;
  std::vector<SlotId> produced_;                                    // by value
  std::map<std::pair<ValueId, std::string>, SlotId> transformed_;  // (value, layout) -> slot
  std::set<std::pair<ValueId, std::string>> layout_views_;  // layout changes that move no data
  std::set<StorageId> written_in_place_;  // storages a step overwrites with its output
};

}  // namespace

Program build_program(const graph::Graph& graph, const NetworkSchedule& schedule) {
  return ProgramBuilder(graph, schedule).build();
}

std::vector<StorageLifetime> storage_lifetimes(const Program& program) {
  const int end = static_cast<int>(program.steps.size());
  std::vector<StorageLifetime> lifetime(static_cast<size_t>(program.storages), StorageLifetime{end, -1});
  auto touch = [&](SlotId slot, int step) {
    StorageLifetime& l = lifetime[static_cast<size_t>(program.slots[static_cast<size_t>(slot)].storage)];
    l.first = std::min(l.first, step);
    l.last = std::max(l.last, step);
  };
  for (int s = 0; s < end; ++s) {
    for (SlotId read : program.steps[static_cast<size_t>(s)].reads) touch(read, s);
    touch(program.steps[static_cast<size_t>(s)].write, s);
  }
  for (SlotId input : program.inputs) {
    touch(input, 0);
    touch(input, end);
  }
  for (SlotId output : program.outputs) touch(output, end);
  for (StorageLifetime& l : lifetime)
    if (l.last < l.first) l = {0, 0};  // a storage no step touches (a view of nothing read)
  return lifetime;
}

}  // namespace layoutopt::kernels::network
