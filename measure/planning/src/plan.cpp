#include "layoutopt/planning/plan.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <tuple>
#include <type_traits>
#include <variant>
#include <nlohmann/json.hpp>

#include "layoutopt/graph/fingerprint.h"
#include "layoutopt/graph/json_number.h"
#include "layoutopt/graph/workloads.h"

namespace layoutopt::planning {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "layoutopt-plan";
constexpr int kVersion = 1;

std::string workload_signature(const graph::Graph& graph, graph::NodeId id) {
  return graph::has_workload(graph.node(id)) ? graph::workload_of(graph, id).signature() : "";
}

PlanNode plan_node(const graph::Graph& graph, graph::NodeId id, const NodeCandidate& choice) {
  const graph::Node& node = graph.node(id);
  PlanNode planned{node.name, graph::op_name(node.op), workload_signature(graph, id), choice.label, choice.kernel,
                   {},        choice.output.str(),     choice.ms};
  for (const layout::Layout& input : choice.inputs) planned.inputs.push_back(input.str());
  return planned;
}

// The kernel choice as the plan file's "payload" string (kernel_choice.h). The documents are
// nlohmann::json, whose objects keep their keys sorted, dumped compactly: the bytes the cost
// sources wrote when the payload was their own JSON string, so plan files stay as they were.
std::string payload_text(const KernelChoice& kernel) {
  return std::visit(
      [](const auto& choice) -> std::string {
        using Choice = std::decay_t<decltype(choice)>;
        if constexpr (std::is_same_v<Choice, UnspecifiedKernel>) {
          return "";
        } else if constexpr (std::is_same_v<Choice, TunedKernel>) {
          return json{{"kind", "tuned"},
                      {"task", choice.task},
                      {"family", choice.family},
                      {"config_index", choice.config_index},
                      {"knobs", choice.knobs}}
              .dump();
        } else if constexpr (std::is_same_v<Choice, FlexibleKernel>) {
          json run = {{"kernel", choice.kernel}, {"desc", choice.desc}, {"schedule", choice.schedule}};
          if (!choice.stand_in_for.empty()) run["stand_in_for"] = choice.stand_in_for;
          return json{{"kind", "flexible"}, {"kernel", std::move(run)}}.dump();
        } else {
          static_assert(std::is_same_v<Choice, CanonicalKernel>);
          return json{{"kind", "canonical"}}.dump();
        }
      },
      kernel);
}

// Knob values are integers; an object of anything else is a damaged payload.
std::map<std::string, int64_t> integer_map(const json& object, const char* what) {
  if (!object.is_object()) throw PlanError(std::string("\"") + what + "\" is not an object");
  std::map<std::string, int64_t> values;
  for (const auto& [key, value] : object.items()) {
    if (!graph::exact_number<int64_t>(value))
      throw PlanError(std::string("\"") + what + "\": \"" + key + "\" is " + value.dump() + ", not an integer");
    values.emplace(key, value.get<int64_t>());
  }
  return values;
}

// Times and config indices read exactly (graph/json_number.h): a damaged number is a
// PlanError, never a truncated value or an out-of-range cast.
template <class T>
T number(const json& value, const std::string& what) {
  return graph::read_exactly<T, PlanError>(value, "\"" + what + "\"");
}

KernelChoice kernel_of_payload(const std::string& text) {
  if (text.empty()) return UnspecifiedKernel{};
  const json payload = json::parse(text, nullptr, false);
  if (payload.is_discarded() || !payload.is_object()) throw PlanError("payload is not a JSON object");
  const std::string kind = payload.value("kind", "");
  if (kind == "tuned")
    return TunedKernel{.task = payload.at("task").get<std::string>(),
                       .family = payload.at("family").get<std::string>(),
                       .config_index = number<int64_t>(payload.at("config_index"), "config_index"),
                       .knobs = integer_map(payload.at("knobs"), "knobs")};
  if (kind == "flexible") {
    const json& kernel = payload.at("kernel");
    return FlexibleKernel{.kernel = kernel.at("kernel").get<std::string>(),
                          .desc = kernel.at("desc").get<std::string>(),
                          .schedule = integer_map(kernel.at("schedule"), "schedule"),
                          .stand_in_for = kernel.value("stand_in_for", "")};
  }
  if (kind == "canonical") return CanonicalKernel{};
  throw PlanError("payload of unknown kind '" + kind + "' (expected tuned, flexible or canonical)");
}

ordered_json node_json(const PlanNode& n) {
  return {{"name", n.name},   {"op", n.op},         {"workload", n.workload}, {"label", n.label},
          {"payload", payload_text(n.kernel)},      {"inputs", n.inputs},     {"output", n.output},
          {"ms", n.ms}};
}

PlanNode node_of(const json& j) {
  const std::string name = j.at("name").get<std::string>();
  KernelChoice kernel;
  try {
    kernel = kernel_of_payload(j.at("payload").get<std::string>());
  } catch (const std::exception& e) {  // PlanError or json::exception
    throw PlanError("damaged plan: node '" + name + "': unreadable payload: " + e.what());
  }
  return {name,
          j.at("op").get<std::string>(),
          j.at("workload").get<std::string>(),
          j.at("label").get<std::string>(),
          std::move(kernel),
          j.at("inputs").get<std::vector<std::string>>(),
          j.at("output").get<std::string>(),
          number<double>(j.at("ms"), "ms")};
}

ordered_json transform_json(const PlanTransform& t) {
  return {{"value", t.value}, {"from", t.from}, {"to", t.to}, {"ms", t.ms}};
}

PlanTransform transform_of(const json& j) {
  return {j.at("value").get<std::string>(), j.at("from").get<std::string>(), j.at("to").get<std::string>(),
          number<double>(j.at("ms"), "ms")};
}

void check_node(const PlanNode& planned, const graph::Graph& graph, graph::NodeId id, const std::string& model) {
  const std::string op = graph::op_name(graph.node(id).op);
  if (planned.op != op)
    throw PlanError("node '" + planned.name + "' is " + op + " in this graph but " + planned.op + " in the plan for '" +
                    model + "': make a new plan");
  if (const std::string workload = workload_signature(graph, id); planned.workload != workload)
    throw PlanError("node '" + planned.name + "' changed: the plan for '" + model + "' has workload '" +
                    planned.workload + "', this graph '" + workload + "': make a new plan");
}

}  // namespace

bool same_schedule(const Plan& a, const Plan& b) {
  const auto node_choice = [](const PlanNode& n) { return std::tie(n.name, n.kernel, n.inputs, n.output); };
  const auto transform_choice = [](const PlanTransform& t) { return std::tie(t.value, t.from, t.to); };
  return std::equal(a.nodes.begin(), a.nodes.end(), b.nodes.begin(), b.nodes.end(),
                    [&](const PlanNode& x, const PlanNode& y) { return node_choice(x) == node_choice(y); }) &&
         std::equal(a.transforms.begin(), a.transforms.end(), b.transforms.begin(), b.transforms.end(),
                    [&](const PlanTransform& x, const PlanTransform& y) { return transform_choice(x) == transform_choice(y); });
}

double Plan::kernel_ms() const {
  double total = 0.0;
  for (const PlanNode& node : nodes) total += node.ms;
  return total;
}

double Plan::transform_ms() const {
  double total = 0.0;
  for (const PlanTransform& transform : transforms) total += transform.ms;
  return total;
}

Plan make_plan(const graph::Graph& graph, const LayoutAssignment& assignment, const PlanOrigin& origin) {
  Plan plan{graph.name(), origin.target, origin.costs, origin.solver, assignment.total_ms(), {}, {},
            graph::structure_fingerprint(graph)};
  for (size_t n = 0; n < graph.nodes().size(); ++n)
    plan.nodes.push_back(plan_node(graph, static_cast<graph::NodeId>(n), assignment.choice.at(n)));
  for (const TensorTransform& t : assignment.transforms)
    plan.transforms.push_back({graph.value(t.value).name, t.from.str(), t.to.str(), t.ms});
  return plan;
}

ordered_json to_json(const Plan& plan) {
  ordered_json nodes = ordered_json::array();
  for (const PlanNode& node : plan.nodes) nodes.push_back(node_json(node));
  ordered_json transforms = ordered_json::array();
  for (const PlanTransform& transform : plan.transforms) transforms.push_back(transform_json(transform));
  ordered_json document{{"format", kFormat}, {"version", kVersion}, {"model", plan.model}};
  if (!plan.graph_fingerprint.empty()) document["graph"] = plan.graph_fingerprint;
  document.update(ordered_json{{"target", plan.target},
                               {"costs", to_string(plan.costs)},
                               {"solver", to_string(plan.solver)},
                               {"predicted_ms", plan.predicted_ms},
                               {"kernel_ms", plan.kernel_ms()},
                               {"transform_ms", plan.transform_ms()},
                               {"nodes", nodes},
                               {"transforms", transforms}});
  return document;
}

Plan plan_from_json(const json& document) {
  // Compared as JSON: a "format" or "version" of another type is a wrong document, not a type error.
  if (!document.is_object() || document.value("format", json()) != kFormat)
    throw PlanError(std::string("not a plan (expected an object with \"format\": \"") + kFormat + "\")");
  if (document.value("version", json()) != kVersion)
    throw PlanError("plan version " + document.value("version", json()).dump() + " is not supported (this layoutopt reads version " +
                    std::to_string(kVersion) + ")");
  try {
    Plan plan{document.at("model").get<std::string>(),
              document.at("target").get<std::string>(),
              parse_cost_kind(document.at("costs").get<std::string>()),
              parse_solver(document.at("solver").get<std::string>()),
              number<double>(document.at("predicted_ms"), "predicted_ms"),
              {},
              {},
              document.value("graph", std::string())};
    for (const json& node : document.at("nodes")) plan.nodes.push_back(node_of(node));
    for (const json& transform : document.at("transforms")) plan.transforms.push_back(transform_of(transform));
    return plan;
  } catch (const json::exception& e) {
    throw PlanError(std::string("damaged plan: ") + e.what());
  } catch (const std::invalid_argument& e) {  // an unknown costs or solver spelling
    throw PlanError(std::string("damaged plan: ") + e.what());
  }
}

void save_plan(const Plan& plan, const std::filesystem::path& path) {
  std::ofstream out(path);
  out << to_json(plan).dump(1) << "\n";
  out.flush();
  if (!out) throw PlanError("cannot write plan '" + path.string() + "'");
}

Plan load_plan(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw PlanError("cannot read plan '" + path.string() + "'");
  try {
    return plan_from_json(json::parse(in));
  } catch (const std::exception& e) {
    throw PlanError("plan '" + path.string() + "': " + e.what());
  }
}

void validate_plan(const Plan& plan, const graph::Graph& graph) {
  if (plan.nodes.size() != graph.nodes().size())
    throw PlanError("the plan was made for '" + plan.model + "' with " + std::to_string(plan.nodes.size()) +
                    " nodes; graph '" + graph.name() + "' has " + std::to_string(graph.nodes().size()) +
                    " (after inference preparation): make a new plan for this model");
  for (const PlanNode& planned : plan.nodes) {
    const std::optional<graph::NodeId> id = graph.find_node(planned.name);
    if (!id)
      throw PlanError("the plan for '" + plan.model + "' names node '" + planned.name + "', which graph '" +
                      graph.name() + "' does not have: make a new plan for this model");
    check_node(planned, graph, *id, plan.model);
  }
  if (plan.graph_fingerprint.empty()) return;  // a plan from before plans recorded the wiring
  if (const std::string fingerprint = graph::structure_fingerprint(graph); fingerprint != plan.graph_fingerprint)
    throw PlanError("the plan for '" + plan.model + "' was made for a graph with the same node names, ops and "
                    "workloads but other wiring or shapes (structure " + plan.graph_fingerprint + ", graph '" +
                    graph.name() + "' has " + fingerprint + "): make a new plan for this model");
}

std::vector<graph::NodeId> transform_readers(const Plan& plan, const graph::Graph& graph,
                                             const PlanTransform& transform) {
  std::vector<graph::NodeId> readers;
  for (const PlanNode& planned : plan.nodes) {
    const graph::NodeId id = graph.find_node(planned.name).value();
    const std::vector<graph::ValueId> inputs = activation_inputs(graph, id);
    for (size_t slot = 0; slot < inputs.size() && slot < planned.inputs.size(); ++slot)
      if (graph.value(inputs[slot]).name == transform.value && planned.inputs[slot] == transform.to) {
        readers.push_back(id);
        break;
      }
  }
  return readers;
}

}  // namespace layoutopt::planning
