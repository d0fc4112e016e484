#include "layoutopt/planning/plan.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <type_traits>
#include <variant>
#include <nlohmann/json.hpp>

#include "layoutopt/graph/fingerprint.h"
#include "layoutopt/graph/json_number.h"
#include "layoutopt/graph/op_kind.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/layout/layout.h"

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
  return {node.name,    graph::op_kind(node.op), workload_signature(graph, id), choice.label, choice.kernel,
          choice.inputs, choice.output,           choice.ms};
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

// nlohmann's messages start with "[json.exception.type_error.302] "; people need the rest.
std::string without_json_prefix(const std::string& what) {
  const size_t bracket = what.find("] ");
  return what.starts_with("[json.exception.") && bracket != std::string::npos ? what.substr(bracket + 2) : what;
}

// A value quoted in a message, cut short: a damaged field may hold a whole document.
std::string quoted(const json& value) {
  const std::string text = value.dump();
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

template <typename T>
const char* expected_type() {
  if constexpr (std::is_same_v<T, std::string>) return "a string";
  else if constexpr (std::is_same_v<T, double>) return "a number";
  else if constexpr (std::is_same_v<T, std::vector<std::string>>) return "a list of strings";
  else static_assert(std::is_same_v<T, json>, "a field type the plan has");
  return "JSON";
}

// `key` of the object `where` names ("node 3 ('conv1')"), as T; a PlanError naming both when
// it is missing or of another type.
template <typename T>
T field(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw PlanError("damaged plan: " + where + " is " + quoted(object) + ", not an object");
  const auto found = object.find(key);
  if (found == object.end()) throw PlanError("damaged plan: " + where + " has no \"" + key + "\"");
  try {
    return found->template get<T>();
  } catch (const json::exception&) {
    throw PlanError("damaged plan: \"" + std::string(key) + "\" of " + where + " is " + quoted(*found) + ", not " +
                    expected_type<T>());
  }
}

// The plan's list `key` ("nodes", "transforms").
const json& list_field(const json& document, const char* key) {
  const auto found = document.find(key);
  if (found == document.end()) throw PlanError(std::string("damaged plan: it has no \"") + key + "\"");
  if (!found->is_array())
    throw PlanError(std::string("damaged plan: \"") + key + "\" is " + quoted(*found) + ", not a list");
  return *found;
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

// The file spells layouts as text (layout.h); the plan holds them parsed.
std::vector<std::string> layout_texts(const std::vector<layout::Layout>& layouts) {
  std::vector<std::string> texts;
  for (const layout::Layout& l : layouts) texts.push_back(l.str());
  return texts;
}

layout::Layout layout_of(const std::string& text, const std::string& where) {
  try {
    return layout::Layout::parse(text);
  } catch (const layout::LayoutError& e) {
    throw PlanError("damaged plan: " + where + ": " + e.what());
  }
}

ordered_json node_json(const PlanNode& n) {
  return {{"name", n.name},   {"op", graph::to_string(n.op)}, {"workload", n.workload},          {"label", n.label},
          {"payload", payload_text(n.kernel)},      {"inputs", layout_texts(n.inputs)}, {"output", n.output.str()},
          {"ms", n.ms}};
}

graph::OpKind op_kind_of(const std::string& text, const std::string& node) {
  if (const std::optional<graph::OpKind> kind = graph::parse_op_kind(text)) return *kind;
  throw PlanError("damaged plan: node '" + node + "': op '" + text + "' is no operator layoutopt knows");
}

PlanNode node_of(const json& j, size_t number) {
  const std::string name = field<std::string>(j, "name", "node " + std::to_string(number));
  const std::string where = "node " + std::to_string(number) + " ('" + name + "')";
  KernelChoice kernel;
  try {
    kernel = kernel_of_payload(field<std::string>(j, "payload", where));
  } catch (const std::exception& e) {  // PlanError or json::exception
    throw PlanError("damaged plan: node '" + name + "': unreadable payload: " + without_json_prefix(e.what()));
  }
  const std::string layouts_of = "node '" + name + "'";
  std::vector<layout::Layout> inputs;
  for (const std::string& text : field<std::vector<std::string>>(j, "inputs", where))
    inputs.push_back(layout_of(text, layouts_of));
  return {name,
          op_kind_of(field<std::string>(j, "op", where), name),
          field<std::string>(j, "workload", where),
          field<std::string>(j, "label", where),
          std::move(kernel),
          std::move(inputs),
          layout_of(field<std::string>(j, "output", where), layouts_of),
          field<double>(j, "ms", where)};
}

ordered_json transform_json(const PlanTransform& t) {
  return {{"value", t.value}, {"from", t.from.str()}, {"to", t.to.str()}, {"ms", t.ms}};
}

PlanTransform transform_of(const json& j, size_t number) {
  const std::string where = "transform " + std::to_string(number);
  const std::string value = field<std::string>(j, "value", where);
  const std::string from = field<std::string>(j, "from", where), to = field<std::string>(j, "to", where);
  const std::string layouts_of = "transform of '" + value + "' (" + from + " -> " + to + ")";
  return {value, layout_of(from, layouts_of), layout_of(to, layouts_of), field<double>(j, "ms", where)};
}

// Format first, then version: a future version may change every other field.
void check_format_and_version(const json& document) {
  if (!document.is_object() || !document.contains("format") || document.at("format") != kFormat)
    throw PlanError(std::string("not a plan (expected an object with \"format\": \"") + kFormat + "\")");
  const json version = document.value("version", json());
  if (!version.is_number_integer())
    throw PlanError("damaged plan: \"version\" is " + quoted(version) + ", not a whole number");
  if (version.get<int64_t>() > kVersion)
    throw PlanError("plan version " + version.dump() + " was written by a newer layoutopt; this one reads version " +
                    std::to_string(kVersion) + ": make the plan again with this layoutopt, or update layoutopt");
  if (version.get<int64_t>() != kVersion)
    throw PlanError("plan version " + version.dump() + " is not supported (this layoutopt reads version " +
                    std::to_string(kVersion) + ")");
}

Plan read_plan(const json& document) {
  const std::string where = "the plan";
  Plan plan{field<std::string>(document, "model", where),
            field<std::string>(document, "target", where),
            parse_cost_kind(field<std::string>(document, "costs", where)),
            parse_solver(field<std::string>(document, "solver", where)),
            field<double>(document, "predicted_ms", where),
            {},
            {},
            document.contains("graph") ? field<std::string>(document, "graph", where) : std::string()};
  for (const json& node : list_field(document, "nodes")) plan.nodes.push_back(node_of(node, plan.nodes.size() + 1));
  for (const json& transform : list_field(document, "transforms"))
    plan.transforms.push_back(transform_of(transform, plan.transforms.size() + 1));
  return plan;
}

void check_node(const PlanNode& planned, const graph::Graph& graph, graph::NodeId id, const std::string& model) {
  if (const graph::OpKind op = graph::op_kind(graph.node(id).op); planned.op != op)
    throw PlanError("node '" + planned.name + "' is " + std::string(graph::to_string(op)) + " in this graph but " +
                    std::string(graph::to_string(planned.op)) + " in the plan for '" + model + "': make a new plan");
  if (const std::string workload = workload_signature(graph, id); planned.workload != workload)
    throw PlanError("node '" + planned.name + "' changed: the plan for '" + model + "' has workload '" +
                    planned.workload + "', this graph '" + workload + "': make a new plan");
  // The compiler reads one scheduled layout per activation input; a plan with more or fewer
  // would have it read past the list.
  if (const size_t inputs = activation_inputs(graph, id).size(); planned.inputs.size() != inputs)
    throw PlanError("damaged plan: node '" + planned.name + "' lists " + std::to_string(planned.inputs.size()) +
                    " input layouts; it reads " + std::to_string(inputs) + " activation inputs in graph '" +
                    graph.name() + "'");
}

// The first name `names` holds twice, or empty.
std::string first_repeated(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const std::string& name : names)
    if (!seen.insert(name).second) return name;
  return "";
}

// The first name of `names` that `known` lacks, or empty.
std::string first_unknown(const std::vector<std::string>& names, const std::set<std::string>& known) {
  for (const std::string& name : names)
    if (!known.contains(name)) return name;
  return "";
}

std::vector<std::string> graph_node_names(const graph::Graph& graph) {
  std::vector<std::string> names;
  for (const graph::Node& node : graph.nodes()) names.push_back(node.name);
  return names;
}

// The plan lists exactly the graph's nodes, once each and in graph order: plan_schedule and
// the cost code index plan nodes by graph node id.
void check_node_list(const Plan& plan, const graph::Graph& graph) {
  std::vector<std::string> planned;
  for (const PlanNode& node : plan.nodes) planned.push_back(node.name);
  const std::vector<std::string> names = graph_node_names(graph);
  const std::set<std::string> in_plan(planned.begin(), planned.end()), in_graph(names.begin(), names.end());
  const std::string extra = first_unknown(planned, in_graph), missing = first_unknown(names, in_plan);
  const std::string new_plan = ": make a new plan for this model";
  if (planned.size() != names.size())
    throw PlanError("the plan was made for '" + plan.model + "' with " + std::to_string(planned.size()) +
                    " nodes; graph '" + graph.name() + "' has " + std::to_string(names.size()) +
                    " (after inference preparation)" +
                    (!extra.empty() ? "; the plan names node '" + extra + "', which the graph does not have"
                     : !missing.empty() ? "; the plan lacks node '" + missing + "'"
                                        : std::string()) +
                    new_plan);
  if (!extra.empty())
    throw PlanError("the plan for '" + plan.model + "' names node '" + extra + "', which graph '" + graph.name() +
                    "' does not have" + new_plan);
  // Equal counts and no unknown name: a node is missing only when another is listed twice.
  if (const std::string repeated = first_repeated(planned); !repeated.empty())
    throw PlanError("damaged plan: it lists node '" + repeated + "' twice and lacks node '" + missing + "' of graph '" +
                    graph.name() + "'");
  for (size_t n = 0; n < names.size(); ++n)
    if (planned[n] != names[n])
      throw PlanError("node " + std::to_string(n + 1) + " of the plan is '" + planned[n] + "', graph '" + graph.name() +
                      "' has '" + names[n] + "' there: plans list nodes in graph order, so the plan is damaged or "
                      "was made before the inference passes reordered this graph" + new_plan);
}

void check_fingerprint(const Plan& plan, const graph::Graph& graph) {
  if (plan.graph_fingerprint.empty()) return;  // a plan from before plans recorded the wiring
  if (const std::string fingerprint = graph::structure_fingerprint(graph); fingerprint != plan.graph_fingerprint)
    throw PlanError("the plan for '" + plan.model + "' was made for a graph with the same node names, ops and "
                    "workloads but other wiring or shapes (structure " + plan.graph_fingerprint + ", graph '" +
                    graph.name() + "' has " + fingerprint + "): make a new plan for this model");
}

// A transform converts an activation the graph has.
void check_transform(const PlanTransform& transform, const graph::Graph& graph, const std::string& model) {
  const std::string where =
      "transform of '" + transform.value + "' (" + transform.from.str() + " -> " + transform.to.str() + ")";
  const std::optional<graph::ValueId> value = graph.find_value(transform.value);
  if (!value)
    throw PlanError("the plan for '" + model + "' has a " + where + ", but graph '" + graph.name() +
                    "' has no value '" + transform.value + "': make a new plan for this model");
  if (graph.value(*value).kind == graph::ValueKind::parameter)
    throw PlanError("damaged plan: " + where + ": '" + transform.value + "' is a parameter, not an activation");
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
    plan.transforms.push_back({graph.value(t.value).name, t.from, t.to, t.ms});
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
  check_format_and_version(document);
  try {
    return read_plan(document);
  } catch (const json::exception& e) {
    throw PlanError("damaged plan: " + without_json_prefix(e.what()));
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
  if (!std::filesystem::exists(path)) throw PlanError("plan '" + path.string() + "' does not exist");
  // A folder opens as a stream and fails on the first read with a message naming no file.
  if (std::filesystem::is_directory(path)) throw PlanError("plan '" + path.string() + "' is a folder, not a file");
  std::ifstream in(path);
  if (!in) throw PlanError("cannot read plan '" + path.string() + "'");
  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error& e) {
    throw PlanError("plan '" + path.string() + "' is not valid JSON (a damaged or truncated file?): " +
                    without_json_prefix(e.what()));
  } catch (const std::exception& e) {  // a read error
    throw PlanError("cannot read plan '" + path.string() + "': " + e.what());
  }
  try {
    return plan_from_json(document);
  } catch (const PlanError& e) {
    throw PlanError("plan '" + path.string() + "': " + e.what());
  }
}

void validate_plan(const Plan& plan, const graph::Graph& graph) {
  check_node_list(plan, graph);
  for (size_t n = 0; n < plan.nodes.size(); ++n) check_node(plan.nodes[n], graph, static_cast<graph::NodeId>(n), plan.model);
  check_fingerprint(plan, graph);
  for (const PlanTransform& transform : plan.transforms) check_transform(transform, graph, plan.model);
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
