#include "layoutopt/kernels/config_space.h"

#include <algorithm>
#include <sstream>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

std::string knob_text(const std::map<std::string, int64_t>& knobs) {
  std::string text;
  for (const auto& [name, value] : knobs) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

void ConfigSpace::add(std::string name, std::vector<int64_t> values, std::optional<int64_t> when_absent) {
  if (!knobs_.empty() && !knobs_.back().searched)
    throw KernelError("config space knob '" + name + "' follows a derived knob: derived knobs come last");
  append({std::move(name), std::move(values), when_absent, true});
}

void ConfigSpace::add(const KnobDecl& knob, std::vector<int64_t> values, std::optional<int64_t> when_absent) {
  if (knob.kind == KnobKind::autotvm_alias)
    throw KernelError(std::string("config space knob '") + knob.name + "' is AutoTVM's spelling, not a knob of ours");
  if (knob.kind == KnobKind::derived) add_derived(knob.name, std::move(values), when_absent);
  else add(knob.name, std::move(values), when_absent);
}

void ConfigSpace::add_derived(std::string name, std::vector<int64_t> values, std::optional<int64_t> when_absent) {
  append({std::move(name), std::move(values), when_absent, false});
}

void ConfigSpace::append(Knob knob) {
  if (knob.values.empty()) throw KernelError("config space knob '" + knob.name + "' has no values");
  if (knob.when_absent && std::find(knob.values.begin(), knob.values.end(), *knob.when_absent) == knob.values.end())
    throw KernelError("config space knob '" + knob.name + "': its value when absent is not one of its values");
  knobs_.push_back(std::move(knob));
}

const std::vector<int64_t>& ConfigSpace::values(const std::string& name) const {
  for (const Knob& knob : knobs_)
    if (knob.name == name) return knob.values;
  throw KernelError("config space has no knob '" + name + "'");
}

int64_t ConfigSpace::size() const {
  int64_t total = 1;
  for (const Knob& knob : knobs_) total *= static_cast<int64_t>(knob.values.size());
  return total;
}

int64_t ConfigSpace::searched_size() const {
  int64_t total = 1;
  for (const Knob& knob : knobs_)
    if (knob.searched) total *= static_cast<int64_t>(knob.values.size());
  return total;
}

std::map<std::string, int64_t> ConfigSpace::point(int64_t index) const {
  if (index < 0 || index >= size())
    throw KernelError("config space index " + std::to_string(index) + " outside [0, " +
                      std::to_string(size()) + ")");
  std::map<std::string, int64_t> result;
  for (const Knob& knob : knobs_) {
    const auto radix = static_cast<int64_t>(knob.values.size());
    result[knob.name] = knob.values[static_cast<size_t>(index % radix)];
    index /= radix;
  }
  return result;
}

std::string ConfigSpace::str() const {
  std::ostringstream out;
  for (const Knob& knob : knobs_) {
    out << knob.name << ": [";
    for (size_t i = 0; i < knob.values.size(); ++i) out << (i ? ", " : "") << knob.values[i];
    out << "]\n";
  }
  return out.str();
}

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> result;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) result.push_back(d);
  return result;
}

std::vector<int64_t> inclusive_range(int64_t first, int64_t last) {
  std::vector<int64_t> result;
  for (int64_t v = first; v <= last; ++v) result.push_back(v);
  return result;
}

}  // namespace layoutopt::kernels
