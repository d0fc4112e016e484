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
  if (values.empty()) throw KernelError("config space knob '" + name + "' has no values");
  if (when_absent && std::find(values.begin(), values.end(), *when_absent) == values.end())
    throw KernelError("config space knob '" + name + "': its value when absent is not one of its values");
  knobs_.push_back({std::move(name), std::move(values), when_absent});
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
