#include "layoutopt/pipeline/phase_times.h"

#include <cmath>
#include <sstream>

namespace layoutopt::pipeline {

const char* to_string(Phase phase) {
  switch (phase) {
    case Phase::tuning: return "tuning";
    case Phase::default_configs: return "default configs";
    case Phase::layout_variants: return "layout variants";
    case Phase::transforms: return "transforms";
    case Phase::flexible_ops: return "flexible ops";
    case Phase::confirmation: return "confirmation";
    case Phase::calibration: return "calibration";
    case Phase::planning: return "planning";
    case Phase::comparison: return "comparison";
  }
  return "?";
}

void PhaseTimes::add(Phase phase, double seconds) {
  for (auto& [known, total] : seconds_)
    if (known == phase) {
      total += seconds;
      return;
    }
  seconds_.emplace_back(phase, seconds);
}

void PhaseTimes::append(const PhaseTimes& other) {
  for (const auto& [phase, seconds] : other.seconds_) add(phase, seconds);
}

double PhaseTimes::total_seconds() const {
  double total = 0;
  for (const auto& entry : seconds_) total += entry.second;
  return total;
}

std::string PhaseTimes::summary() const {
  std::ostringstream out;
  for (size_t i = 0; i < seconds_.size(); ++i)
    out << (i == 0 ? "" : ", ") << to_string(seconds_[i].first) << " " << std::lround(seconds_[i].second) << " s";
  out << "; " << std::lround(total_seconds()) << " s in all";
  return out.str();
}

}  // namespace layoutopt::pipeline
