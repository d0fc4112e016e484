#include "layoutopt/evaluation/prediction_check.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace layoutopt::evaluation {

namespace {

double ratio_of(double measured_ms, double predicted_ms) {
  return predicted_ms > 0 ? measured_ms / predicted_ms : std::numeric_limits<double>::infinity();
}

bool within(double ratio, double reference, double tolerance) {
  return std::isfinite(ratio) && std::abs(ratio / reference - 1) <= tolerance;
}

std::string two_decimals(double value) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << value;
  return text.str();
}

std::string times(double ratio) { return std::isfinite(ratio) ? two_decimals(ratio) + "x" : "unpriced"; }

/// "0.68-0.74x" over the priced types ("unpriced" when none is).
std::string ratio_range(const std::vector<StepTypeRatio>& types) {
  double low = std::numeric_limits<double>::infinity(), high = 0;
  for (const StepTypeRatio& t : types)
    if (std::isfinite(t.ratio)) low = std::min(low, t.ratio), high = std::max(high, t.ratio);
  if (!std::isfinite(low)) return "unpriced";
  return two_decimals(low) + "-" + two_decimals(high) + "x";
}

std::string listed(const std::vector<StepTypeRatio>& types) {
  std::string text;
  for (const StepTypeRatio& t : types) text += (text.empty() ? "" : ", ") + t.type + " " + times(t.ratio);
  return text;
}

}  // namespace

std::vector<StepTypeRatio> PredictionCheck::off(double reference) const {
  std::vector<StepTypeRatio> types;
  for (const StepTypeRatio& t : weighty)
    if (!within(t.ratio, reference, tolerance)) types.push_back(t);
  return types;
}

bool PredictionCheck::prices_hold() const { return off(1.0).empty(); }

bool PredictionCheck::host_moved() const {
  return !weighty.empty() && !within(run_ratio, 1.0, tolerance);
}

// Against the run's ratio when the whole run moved, else against the price itself: a type
// 0.82x its price in a run at 0.91x is off its price, though near the run's ratio.
std::vector<StepTypeRatio> PredictionCheck::misses() const { return host_moved() ? off(run_ratio) : off(1.0); }

std::string PredictionCheck::verdict() const {
  if (weighty.empty()) return "no step type has a price to check";
  const int percent = static_cast<int>(std::lround(tolerance * 100));
  if (prices_hold())
    return "every step type within " + std::to_string(percent) + "% of its price (" + ratio_range(weighty) + ")";
  if (host_moved()) {
    const std::vector<StepTypeRatio> off_run = misses();
    std::string text = "every step type " + ratio_range(weighty) + " its price, the run " + times(run_ratio) +
                       ": the whole run moved, not one price (the host's speed since the plan was priced, or prices "
                       "taken outside the network)";
    if (!off_run.empty()) text += "; off the run's ratio: " + listed(off_run);
    return text;
  }
  return "step types off their price: " + listed(misses()) + " (the run " + times(run_ratio) + ")";
}

PredictionCheck check_predictions(const std::vector<StepTypeTotals>& types, double tolerance, double min_share) {
  assert(tolerance > 0 && min_share >= 0 && min_share < 1);
  double total_ms = 0;
  for (const StepTypeTotals& t : types) total_ms += t.measured_ms;
  PredictionCheck check;
  check.tolerance = tolerance;
  double measured_ms = 0, predicted_ms = 0;
  for (const StepTypeTotals& t : types) {
    if (t.measured_ms < min_share * total_ms || t.measured_ms <= 0) {
      check.light_types.push_back(t.type);
      continue;
    }
    check.weighty.push_back({t.type, ratio_of(t.measured_ms, t.predicted_ms)});
    if (t.predicted_ms <= 0) continue;  // a missing price is a miss, not the host's speed
    measured_ms += t.measured_ms;
    predicted_ms += t.predicted_ms;
  }
  check.run_ratio = ratio_of(measured_ms, predicted_ms);
  return check;
}

}  // namespace layoutopt::evaluation
