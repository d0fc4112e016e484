#pragma once
// ConfigSpace: the knobs of an operator's schedule space and their candidate values, printed
// the way AutoTVM prints a ConfigSpace ("tile_ic: [1, 2, 4, ...]"). A point of the space is
// one value per knob, addressed by a flat index (mixed radix, first knob fastest).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/kernels/knob_table.h"

namespace layoutopt::kernels {

struct Knob {
  std::string name;
  std::vector<int64_t> values;
  /// The value a schedule that does not name this knob implies: set for knobs added after
  /// schedules were first written (records, plans), whose old kernels are this value's.
  std::optional<int64_t> when_absent;
  /// False for a derived knob: search leaves it at its first value, and variants of searched
  /// configs set it (a conv's store block, which depends on the layer that reads the output).
  bool searched = true;
};

class ConfigSpace {
 public:
  void add(std::string name, std::vector<int64_t> values, std::optional<int64_t> when_absent = std::nullopt);
  /// A knob of a family's table (knob_table.h): searched or derived as it is declared there.
  void add(const KnobDecl& knob, std::vector<int64_t> values, std::optional<int64_t> when_absent = std::nullopt);
  /// A derived knob (see Knob::searched); it comes after every searched knob, so the searched
  /// configs are the flat indices [0, searched_size()), where each derived knob has its first
  /// value.
  void add_derived(std::string name, std::vector<int64_t> values, std::optional<int64_t> when_absent = std::nullopt);
  [[nodiscard]] const std::vector<Knob>& knobs() const { return knobs_; }
  /// Values of the knob with this name; throws KernelError for an unknown knob.
  [[nodiscard]] const std::vector<int64_t>& values(const std::string& name) const;
  /// Number of points (product of the knob sizes).
  [[nodiscard]] int64_t size() const;
  /// Number of searched configs: the product of the searched knobs' sizes.
  [[nodiscard]] int64_t searched_size() const;
  /// True for a config whose derived knobs have their first values (a point search visits).
  [[nodiscard]] bool searched(int64_t index) const { return index < searched_size(); }
  /// The searched config with `index`'s searched knobs, each derived knob at its first value
  /// (the derived knobs are the flat index's most significant digits).
  [[nodiscard]] int64_t searched_part(int64_t index) const { return index % searched_size(); }
  /// The point with flat index `index` in [0, size()), as knob name -> value.
  [[nodiscard]] std::map<std::string, int64_t> point(int64_t index) const;
  /// One line per knob: "name: [v0, v1, ...]".
  [[nodiscard]] std::string str() const;

 private:
  void append(Knob knob);

  std::vector<Knob> knobs_;
};

/// A point of a space as text, "name=value name=value ..." in name order.
[[nodiscard]] std::string knob_text(const std::map<std::string, int64_t>& knobs);

/// Divisors of n in increasing order (the candidate channel blocks of a channel count).
[[nodiscard]] std::vector<int64_t> divisors(int64_t n);
/// first, first + 1, ..., last (empty when last < first).
[[nodiscard]] std::vector<int64_t> inclusive_range(int64_t first, int64_t last);

}  // namespace layoutopt::kernels
