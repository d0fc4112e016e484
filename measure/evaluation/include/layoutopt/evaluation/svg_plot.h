#pragma once
// Self-contained SVG line/scatter plots for reports: no plotting library, no scripts, a
// file any browser shows. Axes may be logarithmic (solve times span microseconds to seconds).

#include <string>
#include <utility>
#include <vector>

namespace layoutopt::evaluation {

struct PlotSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y); sorted by x when drawn as a line
};

struct PlotSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  bool lines = true;  ///< connect each series' points; false draws markers only
  int width = 640;
  int height = 400;
};

/// Renders the series as an SVG document. Points that cannot be drawn on a log axis
/// (x or y <= 0) are left out; an empty plot says so instead of failing.
[[nodiscard]] std::string svg_plot(const PlotSpec& spec, const std::vector<PlotSeries>& series);

}  // namespace layoutopt::evaluation
