#pragma once
// ConfigSpace: the knobs of an operator's schedule space and their candidate values, printed
// the way AutoTVM prints a ConfigSpace ("tile_ic: [1, 2, 4, ...]"). A point of the space is
// one value per knob, addressed by a flat index (mixed radix, first knob fastest).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace layoutopt::kernels {

struct Knob {
  std::string name;
  std::vector<int64_t> values;
  /// The value a schedule that does not name this knob implies: set for knobs added after
  /// schedules were first written (records, plans), whose old kernels are this value's.
  std::optional<int64_t> when_absent;
};

class ConfigSpace {
 public:
  void add(std::string name, std::vector<int64_t> values, std::optional<int64_t> when_absent = std::nullopt);
  [[nodiscard]] const std::vector<Knob>& knobs() const { return knobs_; }
  /// Values of the knob with this name; throws KernelError for an unknown knob.
  [[nodiscard]] const std::vector<int64_t>& values(const std::string& name) const;
  /// Number of points (product of the knob sizes).
  [[nodiscard]] int64_t size() const;
  /// The point with flat index `index` in [0, size()), as knob name -> value.
  [[nodiscard]] std::map<std::string, int64_t> point(int64_t index) const;
  /// One line per knob: "name: [v0, v1, ...]".
  [[nodiscard]] std::string str() const;

 private:
  std::vector<Knob> knobs_;
};

/// A point of a space as text, "name=value name=value ..." in name order.
[[nodiscard]] std::string knob_text(const std::map<std::string, int64_t>& knobs);

/// Divisors of n in increasing order (the candidate channel blocks of a channel count).
[[nodiscard]] std::vector<int64_t> divisors(int64_t n);
/// first, first + 1, ..., last (empty when last < first).
[[nodiscard]] std::vector<int64_t> inclusive_range(int64_t first, int64_t last);

}  // namespace layoutopt::kernels
