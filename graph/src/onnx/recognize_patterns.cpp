#include "recognize_patterns.h"

#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "constant_table.h"

namespace layoutopt::graph::onnx {

namespace {

/// What the matchers ask of the graph: who computes a tensor, and which tensors are fixed.
class PatternGraph {
 public:
  explicit PatternGraph(pb::GraphProto& graph) : constants_(graph) {
    for (pb::NodeProto& node : *graph.mutable_node())
      if (in_default_domain(node))
        for (const std::string& output : node.output()) producers_[output] = &node;
    for (const pb::ValueInfoProto& input : graph.input()) inputs_.insert(input.name());
  }

  /// The node computing `tensor` when it is an `op_type` node, else null.
  [[nodiscard]] const pb::NodeProto* producer(const std::string& tensor, const char* op_type) const {
    const auto it = producers_.find(tensor);
    return it != producers_.end() && it->second->op_type() == op_type ? it->second : nullptr;
  }

  /// True for a one-element constant equal to `expected` up to float rounding.
  [[nodiscard]] bool is_scalar(const std::string& tensor, double expected) {
    const std::optional<double> value = scalar(tensor);
    return value && std::abs(*value - expected) <= 1e-6 * std::abs(expected);
  }
  [[nodiscard]] std::optional<double> scalar(const std::string& tensor) {
    const ConstantValue* value = constants_.contains(tensor) ? constants_.value(tensor) : nullptr;
    if (!value || value->size() != 1) return std::nullopt;
    return value->real(0);
  }
  [[nodiscard]] const ConstantValue* constant(const std::string& tensor) {
    return constants_.contains(tensor) ? constants_.value(tensor) : nullptr;
  }
  /// Known before the run: a constant, or a graph input (a weight in a file without them).
  [[nodiscard]] bool is_fixed(const std::string& tensor) const {
    return constants_.contains(tensor) || inputs_.contains(tensor);
  }

 private:
  ConstantTable constants_;
  std::unordered_map<std::string, pb::NodeProto*> producers_;
  std::unordered_set<std::string> inputs_;
};

/// The two operands of a commutative node as (the one satisfying `pick`, the other).
template <class Pick>
std::optional<std::pair<std::string, std::string>> split_operands(const pb::NodeProto& node, Pick pick) {
  if (node.input_size() != 2) return std::nullopt;
  if (pick(node.input(0))) return std::pair{node.input(0), node.input(1)};
  if (pick(node.input(1))) return std::pair{node.input(1), node.input(0)};
  return std::nullopt;
}

// ---- GELU --------------------------------------------------------------------------------

/// x of x * x * x written as Mul(x, Mul(x, x)) in either order, or Pow(x, 3).
std::optional<std::string> cubed(PatternGraph& g, const std::string& tensor) {
  if (const pb::NodeProto* pow = g.producer(tensor, "Pow"))
    return pow->input_size() == 2 && g.is_scalar(pow->input(1), 3.0) ? std::optional(pow->input(0)) : std::nullopt;
  const pb::NodeProto* outer = g.producer(tensor, "Mul");
  if (!outer || outer->input_size() != 2) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const pb::NodeProto* square = g.producer(outer->input(side), "Mul");
    const std::string& x = outer->input(1 - side);
    if (square && square->input_size() == 2 && square->input(0) == x && square->input(1) == x) return x;
  }
  return std::nullopt;
}

/// x of erf(x / sqrt(2)), the exact CDF's argument, written with Div or Mul.
std::optional<std::string> erf_argument(PatternGraph& g, const std::string& erf_input) {
  if (const pb::NodeProto* div = g.producer(erf_input, "Div"))
    return div->input_size() == 2 && g.is_scalar(div->input(1), std::numbers::sqrt2) ? std::optional(div->input(0))
                                                                                      : std::nullopt;
  if (const pb::NodeProto* mul = g.producer(erf_input, "Mul"))
    if (const auto operands = split_operands(*mul, [&](const std::string& t) { return g.is_scalar(t, 1 / std::numbers::sqrt2); }))
      return operands->second;
  return std::nullopt;
}

/// x of tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)), the approximation's argument.
std::optional<std::string> tanh_argument(PatternGraph& g, const std::string& tanh_input) {
  const double sqrt_2_over_pi = std::sqrt(2.0 / std::numbers::pi);
  const pb::NodeProto* scale = g.producer(tanh_input, "Mul");
  if (!scale) return std::nullopt;
  const auto scaled = split_operands(*scale, [&](const std::string& t) { return g.is_scalar(t, sqrt_2_over_pi); });
  const pb::NodeProto* sum = scaled ? g.producer(scaled->second, "Add") : nullptr;
  if (!sum || sum->input_size() != 2) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const pb::NodeProto* term = g.producer(sum->input(side), "Mul");
    const std::string& x = sum->input(1 - side);
    if (!term) continue;
    const auto cubic = split_operands(*term, [&](const std::string& t) { return g.is_scalar(t, 0.044715); });
    if (cubic && cubed(g, cubic->second) == x) return x;
  }
  return std::nullopt;
}

struct CdfTerm {
  std::string x;
  const char* approximate = "none";
};

/// x of 1 + erf(x / sqrt(2)) or 1 + tanh(...): twice GELU's CDF.
std::optional<CdfTerm> cdf_term(PatternGraph& g, const std::string& tensor) {
  const pb::NodeProto* add = g.producer(tensor, "Add");
  const auto operands = add ? split_operands(*add, [&](const std::string& t) { return g.is_scalar(t, 1.0); }) : std::nullopt;
  if (!operands) return std::nullopt;
  if (const pb::NodeProto* erf = g.producer(operands->second, "Erf"))
    if (const auto x = erf_argument(g, erf->input(0))) return CdfTerm{*x, "none"};
  if (const pb::NodeProto* tanh = g.producer(operands->second, "Tanh"))
    if (const auto x = tanh_argument(g, tanh->input(0))) return CdfTerm{*x, "tanh"};
  return std::nullopt;
}

/// GELU's three factors 0.5, x and the CDF term, in any grouping of the two Muls.
std::optional<CdfTerm> gelu_match(PatternGraph& g, const pb::NodeProto& product) {
  if (product.op_type() != "Mul" || product.input_size() != 2) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const pb::NodeProto* inner = g.producer(product.input(side), "Mul");
    if (!inner || inner->input_size() != 2) continue;
    const std::vector<std::string> factors = {product.input(1 - side), inner->input(0), inner->input(1)};
    for (size_t half = 0; half < 3; ++half) {
      if (!g.is_scalar(factors[half], 0.5)) continue;
      const std::string& a = factors[(half + 1) % 3];
      const std::string& b = factors[(half + 2) % 3];
      if (const auto cdf = cdf_term(g, b); cdf && cdf->x == a) return cdf;
      if (const auto cdf = cdf_term(g, a); cdf && cdf->x == b) return cdf;
    }
  }
  return std::nullopt;
}

// ---- Layer normalization ------------------------------------------------------------------

/// The input of a ReduceMean over the last axis alone, keeping it.
std::optional<std::string> mean_over_last_axis(PatternGraph& g, const std::string& tensor) {
  const pb::NodeProto* mean = g.producer(tensor, "ReduceMean");
  if (!mean || mean->input_size() != 2) return std::nullopt;
  const ConstantValue* axes = g.constant(mean->input(1));
  for (const pb::AttributeProto& attribute : mean->attribute())
    if (attribute.name() == "keepdims" && attribute.i() == 0) return std::nullopt;
  if (!axes || axes->size() != 1 || axes->integer(0) != -1) return std::nullopt;
  return mean->input(0);
}

struct LayerNormMatch {
  std::string x, scale, bias;
  float epsilon = 0;
};

/// (x - mean) / sqrt(mean((x - mean)^2) + eps): returns x and eps.
std::optional<std::pair<std::string, float>> normalized(PatternGraph& g, const std::string& tensor) {
  const pb::NodeProto* div = g.producer(tensor, "Div");
  if (!div || div->input_size() != 2) return std::nullopt;
  const pb::NodeProto* centered = g.producer(div->input(0), "Sub");
  const pb::NodeProto* root = g.producer(div->input(1), "Sqrt");
  if (!centered || !root || centered->input_size() != 2) return std::nullopt;
  const std::string& x = centered->input(0);
  if (mean_over_last_axis(g, centered->input(1)) != x) return std::nullopt;
  const pb::NodeProto* shifted = g.producer(root->input(0), "Add");
  const auto variance = shifted ? split_operands(*shifted, [&](const std::string& t) { return g.scalar(t).has_value(); })
                                : std::nullopt;
  if (!variance) return std::nullopt;
  const auto epsilon = static_cast<float>(*g.scalar(variance->first));
  const std::optional<std::string> squares = mean_over_last_axis(g, variance->second);
  const pb::NodeProto* pow = squares ? g.producer(*squares, "Pow") : nullptr;
  if (!pow || pow->input_size() != 2 || pow->input(0) != div->input(0) || !g.is_scalar(pow->input(1), 2.0))
    return std::nullopt;
  return std::pair{x, epsilon};
}

/// normalized(x) * scale + bias, scale and bias fixed tensors, either operand order.
std::optional<LayerNormMatch> layer_norm_match(PatternGraph& g, const pb::NodeProto& sum) {
  if (sum.op_type() != "Add") return std::nullopt;
  const auto fixed = [&](const std::string& t) { return g.is_fixed(t); };
  const auto shifted = split_operands(sum, fixed);
  const pb::NodeProto* scaled = shifted ? g.producer(shifted->second, "Mul") : nullptr;
  const auto factors = scaled ? split_operands(*scaled, fixed) : std::nullopt;
  const auto norm = factors ? normalized(g, factors->second) : std::nullopt;
  if (!norm) return std::nullopt;
  return LayerNormMatch{norm->first, factors->first, shifted->first, norm->second};
}

// ---- Rewriting -----------------------------------------------------------------------------

void add_attribute(pb::NodeProto& node, const char* name, const auto& value) {
  pb::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  if constexpr (std::is_same_v<std::decay_t<decltype(value)>, float>) {
    attribute->set_type(pb::AttributeProto::FLOAT);
    attribute->set_f(value);
  } else if constexpr (std::is_integral_v<std::decay_t<decltype(value)>>) {
    attribute->set_type(pb::AttributeProto::INT);
    attribute->set_i(value);
  } else {
    attribute->set_type(pb::AttributeProto::STRING);
    attribute->set_s(value);
  }
}

/// Turns `node` into `op_type` reading `inputs`, keeping its name and its (one) output.
void rewrite(pb::NodeProto& node, const char* op_type, const std::vector<std::string>& inputs) {
  node.set_op_type(op_type);
  node.clear_attribute();
  node.clear_input();
  for (const std::string& input : inputs) node.add_input(input);
}

}  // namespace

RecognizedPatterns recognize_patterns(pb::GraphProto& graph) {
  PatternGraph g(graph);
  RecognizedPatterns found;
  for (pb::NodeProto& node : *graph.mutable_node()) {
    if (!in_default_domain(node) || node.output_size() != 1) continue;
    if (const std::optional<CdfTerm> gelu = gelu_match(g, node)) {
      rewrite(node, "Gelu", {gelu->x});
      add_attribute(node, "approximate", std::string(gelu->approximate));
      ++found.gelu;
    } else if (const std::optional<LayerNormMatch> norm = layer_norm_match(g, node)) {
      rewrite(node, "LayerNormalization", {norm->x, norm->scale, norm->bias});
      add_attribute(node, "axis", int64_t{-1});
      add_attribute(node, "epsilon", norm->epsilon);
      ++found.layer_norm;
    }
  }
  return found;
}

}  // namespace layoutopt::graph::onnx
