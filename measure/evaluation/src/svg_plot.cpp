#include "layoutopt/evaluation/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace layoutopt::evaluation {

namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr int kMarginLeft = 70, kMarginRight = 150, kMarginTop = 36, kMarginBottom = 50;

std::string escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else out += ch;
  }
  return out;
}

std::string number(double v) {
  char buffer[32];
  const double magnitude = std::abs(v);
  if (magnitude != 0 && (magnitude >= 1e5 || magnitude < 1e-3)) std::snprintf(buffer, sizeof buffer, "%.0e", v);
  else std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

/// Maps data values onto one pixel axis, linear or logarithmic.
class Axis {
 public:
  Axis(double lo, double hi, bool log, double pixel_lo, double pixel_hi)
      : log_(log), pixel_lo_(pixel_lo), pixel_hi_(pixel_hi) {
    lo_ = transform(lo);
    hi_ = transform(hi);
    if (hi_ - lo_ < 1e-12) {
      lo_ -= 0.5;
      hi_ += 0.5;
    }
  }
  [[nodiscard]] double pixel(double v) const { return pixel_lo_ + (transform(v) - lo_) / (hi_ - lo_) * (pixel_hi_ - pixel_lo_); }
  /// Tick values: powers of ten on log axes, about six round steps on linear ones.
  [[nodiscard]] std::vector<double> ticks() const {
    std::vector<double> values;
    if (log_) {
      for (double e = std::floor(lo_); e <= std::ceil(hi_); e += 1.0)
        if (e >= lo_ - 1e-9 && e <= hi_ + 1e-9) values.push_back(std::pow(10.0, e));
      return values;
    }
    const double raw = (hi_ - lo_) / 6.0;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / power < 2 ? 2 * power : raw / power < 5 ? 5 * power : 10 * power;
    for (double v = std::ceil(lo_ / step) * step; v <= hi_ + 1e-9 * step; v += step) values.push_back(v);
    return values;
  }

 private:
  [[nodiscard]] double transform(double v) const { return log_ ? std::log10(v) : v; }
  bool log_;
  double lo_ = 0, hi_ = 1, pixel_lo_, pixel_hi_;
};

bool drawable(const PlotSpec& spec, std::pair<double, double> p) {
  return std::isfinite(p.first) && std::isfinite(p.second) && (!spec.log_x || p.first > 0) &&
         (!spec.log_y || p.second > 0);
}

}  // namespace

std::string svg_plot(const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const PlotSeries& s : series)
    for (const auto& p : s.points)
      if (drawable(spec, p)) {
        x_lo = std::min(x_lo, p.first), x_hi = std::max(x_hi, p.first);
        y_lo = std::min(y_lo, p.second), y_hi = std::max(y_hi, p.second);
      }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << spec.width << "\" height=\"" << spec.height
      << "\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << spec.width / 2 << "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">" << escape(spec.title)
      << "</text>\n";
  if (!std::isfinite(x_lo)) {
    svg << "<text x=\"" << spec.width / 2 << "\" y=\"" << spec.height / 2 << "\" text-anchor=\"middle\">no data</text>\n</svg>\n";
    return svg.str();
  }
  const double left = kMarginLeft, right = spec.width - kMarginRight, top = kMarginTop, bottom = spec.height - kMarginBottom;
  const Axis x(x_lo, x_hi, spec.log_x, left, right);
  const Axis y(y_lo, y_hi, spec.log_y, bottom, top);
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\"" << bottom - top
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (double t : x.ticks())
    svg << "<line x1=\"" << x.pixel(t) << "\" x2=\"" << x.pixel(t) << "\" y1=\"" << top << "\" y2=\"" << bottom
        << "\" stroke=\"#ddd\"/><text x=\"" << x.pixel(t) << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\">"
        << number(t) << "</text>\n";
  for (double t : y.ticks())
    svg << "<line x1=\"" << left << "\" x2=\"" << right << "\" y1=\"" << y.pixel(t) << "\" y2=\"" << y.pixel(t)
        << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\"" << y.pixel(t) + 4 << "\" text-anchor=\"end\">"
        << number(t) << "</text>\n";
  svg << "<text x=\"" << (left + right) / 2 << "\" y=\"" << spec.height - 12 << "\" text-anchor=\"middle\">"
      << escape(spec.x_label) << "</text>\n<text transform=\"translate(16," << (top + bottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape(spec.y_label) << "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const char* color = kColors[i % std::size(kColors)];
    std::vector<std::pair<double, double>> points;
    for (const auto& p : series[i].points)
      if (drawable(spec, p)) points.push_back(p);
    std::sort(points.begin(), points.end());
    if (spec.lines && points.size() > 1) {
      svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"1.5\" points=\"";
      for (const auto& [px, py] : points) svg << x.pixel(px) << "," << y.pixel(py) << " ";
      svg << "\"/>\n";
    }
    for (const auto& [px, py] : points)
      svg << "<circle cx=\"" << x.pixel(px) << "\" cy=\"" << y.pixel(py) << "\" r=\"3\" fill=\"" << color << "\"/>\n";
    const double legend_y = top + 16.0 * static_cast<double>(i) + 8;
    svg << "<rect x=\"" << right + 12 << "\" y=\"" << legend_y - 8 << "\" width=\"10\" height=\"10\" fill=\"" << color
        << "\"/><text x=\"" << right + 28 << "\" y=\"" << legend_y + 1 << "\">" << escape(series[i].name) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace layoutopt::evaluation
