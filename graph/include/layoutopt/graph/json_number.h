#pragma once
// Reading a JSON number from a file as an exact C++ value. nlohmann's get<T>() truncates an
// integer that does not fit T, and casting a float outside an integer's (or float's) range
// is undefined behaviour; a hand-edited or damaged file must get an error instead. Each file
// reader (graph, plan, records, transform table) throws its own error type when this says no.

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace layoutopt::graph {

/// `value` as T when it is one exactly: an integer in T's range for integral T, a boolean for
/// bool, a finite number in range for floating T (integers convert); nullopt otherwise.
template <class T>
[[nodiscard]] std::optional<T> exact_number(const nlohmann::json& value) {
  if constexpr (std::is_same_v<T, bool>) {
    if (value.is_boolean()) return value.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (value.is_number_unsigned() && std::in_range<T>(value.get<uint64_t>())) return value.get<T>();
    if (value.is_number_integer() && !value.is_number_unsigned() && std::in_range<T>(value.get<int64_t>()))
      return value.get<T>();
  } else {
    static_assert(std::is_floating_point_v<T>);
    if (value.is_number() && std::isfinite(value.get<double>()) &&
        std::abs(value.get<double>()) <= static_cast<double>(std::numeric_limits<T>::max()))
      return value.get<T>();
  }
  return std::nullopt;
}

/// Whether `value` reads as T without loss: exact_number for arithmetic T, every element for
/// a std::vector of them; true for other types (get<T>() checks those and throws).
template <class T>
[[nodiscard]] bool reads_exactly(const nlohmann::json& value) {
  if constexpr (std::is_arithmetic_v<T>) {
    return exact_number<T>(value).has_value();
  } else if constexpr (requires { typename T::value_type; } && std::is_same_v<T, std::vector<typename T::value_type>> &&
                       std::is_arithmetic_v<typename T::value_type>) {
    if (!value.is_array()) return false;
    for (const nlohmann::json& element : value)
      if (!exact_number<typename T::value_type>(element)) return false;
    return true;
  } else {
    return true;
  }
}

/// `value` as T when reads_exactly says it is one; otherwise throws the reader's own Error
/// saying that `what` is not a number in range.
template <class T, class Error>
[[nodiscard]] T read_exactly(const nlohmann::json& value, const std::string& what) {
  if (!reads_exactly<T>(value))
    throw Error(what + " is not a number in range (" + (value.is_number() ? value.dump() : value.type_name()) + ")");
  return value.get<T>();
}

}  // namespace layoutopt::graph
