#pragma once
// Reading a profiled run against its plan: do the step types agree with their prices, and if
// not, is it the prices or the host?
//
// Why both questions: a shared host changes speed for minutes at a time
// (docs/design/slow-spells.md). A plan priced in one state and run in another is off in
// every step type, convs and transforms alike (memory-bound ones somewhat more); a wrong price
// is off in its own step type and not in the others. So the run's own ratio and the step
// types' spread around it tell a model error from a host that moved, and only the first is
// something to fix in the prices.

#include <string>
#include <vector>

namespace layoutopt::evaluation {

/// One type of step of a profiled run ("kernel conv2d", "transform", ...), summed.
struct StepTypeTotals {
  std::string type;
  int steps = 0;
  double measured_ms = 0;
  double predicted_ms = 0;
};

/// One step type's measured / predicted ratio; +inf when it was predicted to take nothing.
struct StepTypeRatio {
  std::string type;
  double ratio = 1;
};

struct PredictionCheck {
  /// Measured / predicted over the priced step types that carry weight (below).
  double run_ratio = 1;
  /// Each weighty step type's own ratio, in the order given.
  std::vector<StepTypeRatio> weighty;
  /// Step types left out of the verdict: under the weight threshold of the run's time.
  std::vector<std::string> light_types;
  double tolerance = 0.15;

  /// Every weighty step type within the tolerance of its price.
  [[nodiscard]] bool prices_hold() const;
  /// The run, summed over the weighty step types, is more than the tolerance off its price.
  /// A calibrated plan's prices were taken in its own network (in-network calibration), so
  /// then the host ran at another speed than when the plan was priced; a plan made without
  /// calibration may also be priced outside the network. misses() names the step types that
  /// did not move alike.
  [[nodiscard]] bool host_moved() const;
  /// Where the prices, not the host, are wrong: the weighty step types further than the
  /// tolerance from the run's ratio when the host moved, else from their price. Empty exactly
  /// when prices_hold() or the host moved alike for every type, so a check reads one way.
  [[nodiscard]] std::vector<StepTypeRatio> misses() const;
  /// One line: "every step type within 15% of its price (0.97-1.03x)"; "every step type
  /// 0.68-0.74x its price, the run 0.70x: the whole run moved, not one price (...)" (then
  /// "; off the run's ratio: ..." for misses()); or, with the run near its price, "step types
  /// off their price: transform 2.10x (the run 1.09x)".
  [[nodiscard]] std::string verdict() const;

 private:
  /// The weighty step types further than the tolerance from `reference`.
  [[nodiscard]] std::vector<StepTypeRatio> off(double reference) const;
};

/// Checks `types` against their prices. A step type carries weight when it takes at least
/// `min_share` of the summed measured time; lighter ones (a few 10 us pools) are listed but
/// do not decide. Requires tolerance > 0 and 0 <= min_share < 1.
[[nodiscard]] PredictionCheck check_predictions(const std::vector<StepTypeTotals>& types, double tolerance = 0.15,
                                                double min_share = 0.02);

}  // namespace layoutopt::evaluation
