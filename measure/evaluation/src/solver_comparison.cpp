#include "layoutopt/evaluation/solver_comparison.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "layoutopt/evaluation/svg_plot.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::evaluation {

namespace {

ComparisonRow run_one(const ComparisonProblem& p, const solvers::Solver& solver, const solvers::SolveOptions& options) {
  ComparisonRow row{.problem = p.name,
                    .family = p.family,
                    .solver = std::string(solver.name()),
                    .nodes = p.problem.node_count(),
                    .edges = p.problem.edge_count(),
                    .log10_search_space = p.problem.log10_search_space()};
  try {
    row.solution = solver.solve(p.problem, options);
  } catch (const solvers::SolverError& e) {
    row.refusal = e.what();
  }
  return row;
}

void fill_gaps(std::vector<ComparisonRow>& rows) {
  std::map<std::string, double> best;
  for (const ComparisonRow& row : rows)
    if (row.solution && row.solution->feasible) {
      auto [it, inserted] = best.try_emplace(row.problem, row.solution->cost);
      if (!inserted) it->second = std::min(it->second, row.solution->cost);
    }
  for (ComparisonRow& row : rows) {
    if (!row.solution || !row.solution->feasible || !best.contains(row.problem)) continue;
    const double b = best.at(row.problem);
    row.gap_to_best = b == 0 ? 0.0 : (row.solution->cost - b) / std::abs(b);
  }
}

double stat(const ComparisonRow& row, const char* key) {
  if (!row.solution) return std::nan("");
  const auto it = row.solution->stats.find(key);
  return it == row.solution->stats.end() ? std::nan("") : it->second;
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

std::string csv_text(const std::string& text) {
  std::string quoted = "\"";
  for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

/// One series per solver: (x, y) for the rows where both are defined.
std::vector<PlotSeries> series_by_solver(const std::vector<ComparisonRow>& rows,
                                         const std::function<double(const ComparisonRow&)>& x,
                                         const std::function<double(const ComparisonRow&)>& y) {
  std::map<std::string, PlotSeries> by_solver;
  for (const ComparisonRow& row : rows) {
    const double vx = x(row), vy = y(row);
    PlotSeries& s = by_solver[row.solver];
    s.name = row.solver;
    if (std::isfinite(vx) && std::isfinite(vy)) s.points.emplace_back(vx, vy);
  }
  std::vector<PlotSeries> series;
  for (auto& [name, s] : by_solver) series.push_back(std::move(s));
  return series;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("failed writing '" + path.string() + "'");
}

std::string summary_table(const std::vector<ComparisonRow>& rows) {
  std::ostringstream html;
  html << "<table><tr><th>problem</th><th>family</th><th>nodes</th><th>solver</th><th>cost (ms)</th>"
          "<th>optimal</th><th>gap to best</th><th>bound gap</th><th>seconds</th></tr>\n";
  for (const ComparisonRow& row : rows) {
    html << "<tr><td>" << row.problem << "</td><td>" << row.family << "</td><td>" << row.nodes << "</td><td>"
         << row.solver << "</td>";
    if (!row.solution) {
      html << "<td colspan=5>refused: " << row.refusal << "</td></tr>\n";
      continue;
    }
    const auto& s = *row.solution;
    html << "<td>" << csv_number(s.cost) << "</td><td>" << (s.optimal ? "yes" : "no") << "</td><td>"
         << (row.gap_to_best ? csv_number(100 * *row.gap_to_best) + "%" : "") << "</td><td>"
         << (s.gap() ? csv_number(100 * *s.gap()) + "%" : "") << "</td><td>" << csv_number(s.seconds) << "</td></tr>\n";
  }
  return html.str() + "</table>\n";
}

}  // namespace

std::vector<ComparisonRow> compare_solvers(const std::vector<ComparisonProblem>& problems,
                                           const ComparisonOptions& options, const ComparisonProgress& progress) {
  std::vector<std::unique_ptr<solvers::Solver>> solvers;
  for (const std::string& name : options.solvers) solvers.push_back(solvers::make_solver(name));
  std::vector<ComparisonRow> rows;
  const size_t total = problems.size() * solvers.size();
  for (const ComparisonProblem& p : problems)
    for (const auto& solver : solvers) {
      rows.push_back(run_one(p, *solver, options.solve));
      if (progress) progress(rows.back(), rows.size(), total);
    }
  fill_gaps(rows);
  return rows;
}

void write_comparison_csv(const std::vector<ComparisonRow>& rows, const std::filesystem::path& path) {
  std::ostringstream csv;
  csv << "problem,family,nodes,edges,log10_search_space,solver,cost_ms,feasible,optimal,lower_bound_ms,bound_gap,"
         "gap_to_best,seconds,induced_width,peak_table_entries,refusal\n";
  for (const ComparisonRow& row : rows) {
    const auto& s = row.solution;
    csv << csv_text(row.problem) << "," << csv_text(row.family) << "," << row.nodes << "," << row.edges << ","
        << csv_number(row.log10_search_space) << "," << row.solver << "," << (s ? csv_number(s->cost) : "") << ","
        << (s && s->feasible ? 1 : 0) << "," << (s && s->optimal ? 1 : 0) << ","
        << (s && s->lower_bound ? csv_number(*s->lower_bound) : "") << ","
        << (s && s->gap() ? csv_number(*s->gap()) : "") << ","
        << (row.gap_to_best ? csv_number(*row.gap_to_best) : "") << "," << (s ? csv_number(s->seconds) : "") << ","
        << csv_number(stat(row, "induced_width")) << "," << csv_number(stat(row, "peak_table_entries")) << ","
        << csv_text(row.refusal) << "\n";
  }
  write_text(path, csv.str());
}

void write_comparison_report(const std::vector<ComparisonRow>& rows, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  auto nodes = [](const ComparisonRow& r) { return static_cast<double>(r.nodes); };
  auto seconds = [](const ComparisonRow& r) { return r.solution ? r.solution->seconds * 1e3 : std::nan(""); };
  // Gaps of exactly 0 cannot sit on a log axis; they are drawn at 1e-6 (0.0001%).
  auto gap = [](const ComparisonRow& r) { return r.gap_to_best ? std::max(*r.gap_to_best * 100, 1e-4) : std::nan(""); };
  const std::vector<std::pair<std::string, std::string>> plots = {
      {"solve_time.svg",
       svg_plot({.title = "Solve time vs problem size", .x_label = "decision nodes", .y_label = "solve time (ms)",
                 .log_x = true, .log_y = true, .lines = false},
                series_by_solver(rows, nodes, seconds))},
      {"optimality_gap.svg",
       svg_plot({.title = "Cost above the best found vs size", .x_label = "decision nodes",
                 .y_label = "gap to best (%, 1e-4 = none)", .log_x = true, .log_y = true, .lines = false},
                series_by_solver(rows, nodes, gap))},
      {"dp_tables.svg",
       svg_plot({.title = "DP peak table size vs induced width", .x_label = "induced width",
                 .y_label = "peak table entries", .log_y = true, .lines = false},
                series_by_solver(rows, [](const ComparisonRow& r) { return stat(r, "induced_width"); },
                                 [](const ComparisonRow& r) { return stat(r, "peak_table_entries"); }))},
  };
  std::ostringstream html;
  html << "<!doctype html><html><head><meta charset=\"utf-8\"><title>layoutopt solver comparison</title>"
          "<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style></head><body>\n"
          "<h1>DP vs PBQP: layout assignment solvers</h1>\n";
  for (const auto& [file, svg] : plots) {
    write_text(folder / file, svg);
    html << svg;
  }
  html << "<h2>All runs</h2>\n" << summary_table(rows) << "</body></html>\n";
  write_text(folder / "report.html", html.str());
  write_comparison_csv(rows, folder / "comparison.csv");
}

}  // namespace layoutopt::evaluation
