#include "op_attributes_json.h"

#include <functional>
#include <map>

#include "layoutopt/graph/overloaded.h"

namespace layoutopt::graph {

namespace {

using nlohmann::json;

json hw(Hw v) { return {v.h, v.w}; }
json pads(const Pads2d& p) { return {p.top, p.left, p.bottom, p.right}; }

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::none: return "none";
    case Activation::relu: return "relu";
    case Activation::relu6: return "relu6";
  }
  return "?";
}

json epilogue(const Epilogue& e) {
  return {{"bias", e.bias},
          {"activation", activation_name(e.activation)},
          {"residual", e.residual},
          {"post_activation", activation_name(e.post_activation)}};
}

/// Reads attributes with the node named in every error.
class AttrReader {
 public:
  AttrReader(const json& attrs, const std::string& context) : attrs_(attrs), context_(context) {}

  template <class T>
  T get(const char* key) const { return require<T>(attrs_, key, context_); }

  Hw hw(const char* key) const {
    const auto v = get<std::vector<int64_t>>(key);
    if (v.size() != 2) fail(key, "2 values");
    return {v[0], v[1]};
  }
  Pads2d pads(const char* key) const {
    const auto v = get<std::vector<int64_t>>(key);
    if (v.size() != 4) fail(key, "4 values (top, left, bottom, right)");
    return {v[0], v[1], v[2], v[3]};
  }
  Activation activation(const json& doc, const char* key) const {
    const auto name = require<std::string>(doc, key, context_);
    for (Activation a : {Activation::none, Activation::relu, Activation::relu6})
      if (name == activation_name(a)) return a;
    fail(key, "none, relu or relu6");
  }
  /// Absent in graphs written before the attribute existed: no activation.
  Activation optional_activation(const char* key) const {
    return attrs_.contains(key) ? activation(attrs_, key) : Activation::none;
  }
  Epilogue epilogue() const {
    const json doc = get<json>("epilogue");
    return {.bias = require<bool>(doc, "bias", context_),
            .activation = activation(doc, "activation"),
            .residual = require<bool>(doc, "residual", context_),
            .post_activation = activation(doc, "post_activation")};
  }

 private:
  [[noreturn]] void fail(const char* key, const std::string& expected) const {
    throw GraphError(context_ + ": attribute '" + key + "' must be " + expected);
  }
  const json& attrs_;
  const std::string& context_;
};

Pool2d read_pool(const AttrReader& r, PoolKind kind) {
  return {.kind = kind,
          .kernel = r.hw("kernel"),
          .stride = r.hw("stride"),
          .pads = r.pads("pads"),
          .ceil_mode = r.get<bool>("ceil_mode"),
          .count_include_pad = r.get<bool>("count_include_pad")};
}

using OpReader = std::function<Op(const AttrReader&)>;

const std::map<std::string, OpReader>& op_readers() {
  static const std::map<std::string, OpReader> readers = {
      {"conv2d",
       [](const AttrReader& r) -> Op {
         return Conv2d{.kernel = r.hw("kernel"),
                       .stride = r.hw("stride"),
                       .dilation = r.hw("dilation"),
                       .pads = r.pads("pads"),
                       .groups = r.get<int64_t>("groups"),
                       .epilogue = r.epilogue()};
       }},
      {"dense", [](const AttrReader& r) -> Op { return Dense{.epilogue = r.epilogue()}; }},
      {"batch_norm",
       [](const AttrReader& r) -> Op {
         return BatchNorm{.epsilon = r.get<float>("epsilon"), .activation = r.optional_activation("activation")};
       }},
      {"relu", [](const AttrReader&) -> Op { return Relu{}; }},
      {"clip", [](const AttrReader& r) -> Op { return Clip{.min = r.get<float>("min"), .max = r.get<float>("max")}; }},
      {"sigmoid", [](const AttrReader&) -> Op { return Sigmoid{}; }},
      {"add", [](const AttrReader&) -> Op { return Add{}; }},
      {"mul", [](const AttrReader&) -> Op { return Mul{}; }},
      {"concat", [](const AttrReader& r) -> Op { return Concat{.axis = r.get<int64_t>("axis")}; }},
      {"max_pool2d", [](const AttrReader& r) -> Op { return read_pool(r, PoolKind::max); }},
      {"avg_pool2d", [](const AttrReader& r) -> Op { return read_pool(r, PoolKind::avg); }},
      {"global_avg_pool2d", [](const AttrReader&) -> Op { return GlobalAvgPool{}; }},
      {"flatten", [](const AttrReader& r) -> Op { return Flatten{.axis = r.get<int64_t>("axis")}; }},
      {"reshape", [](const AttrReader& r) -> Op { return Reshape{.shape = r.get<std::vector<int64_t>>("shape")}; }},
      {"transpose", [](const AttrReader& r) -> Op { return Transpose{.perm = r.get<std::vector<int64_t>>("perm")}; }},
      {"softmax", [](const AttrReader& r) -> Op { return Softmax{.axis = r.get<int64_t>("axis")}; }},
      {"pad", [](const AttrReader& r) -> Op { return Pad{.pads = r.pads("pads"), .value = r.get<float>("value")}; }},
      {"dropout", [](const AttrReader& r) -> Op { return Dropout{.ratio = r.get<float>("ratio")}; }},
      {"identity", [](const AttrReader&) -> Op { return Identity{}; }},
  };
  return readers;
}

}  // namespace

json op_attributes_to_json(const Op& op) {
  return std::visit(
      Overloaded{
          [](const Conv2d& c) -> json {
            return {{"kernel", hw(c.kernel)}, {"stride", hw(c.stride)},   {"dilation", hw(c.dilation)},
                    {"pads", pads(c.pads)},   {"groups", c.groups},       {"epilogue", epilogue(c.epilogue)}};
          },
          [](const Dense& d) -> json { return {{"epilogue", epilogue(d.epilogue)}}; },
          [](const BatchNorm& b) -> json {
            return {{"epsilon", b.epsilon}, {"activation", activation_name(b.activation)}};
          },
          [](const Clip& c) -> json { return {{"min", c.min}, {"max", c.max}}; },
          [](const Concat& c) -> json { return {{"axis", c.axis}}; },
          [](const Pool2d& p) -> json {
            return {{"kernel", hw(p.kernel)},   {"stride", hw(p.stride)},
                    {"pads", pads(p.pads)},     {"ceil_mode", p.ceil_mode},
                    {"count_include_pad", p.count_include_pad}};
          },
          [](const Flatten& f) -> json { return {{"axis", f.axis}}; },
          [](const Reshape& r) -> json { return {{"shape", r.shape}}; },
          [](const Transpose& t) -> json { return {{"perm", t.perm}}; },
          [](const Softmax& s) -> json { return {{"axis", s.axis}}; },
          [](const Pad& p) -> json { return {{"pads", pads(p.pads)}, {"value", p.value}}; },
          [](const Dropout& d) -> json { return {{"ratio", d.ratio}}; },
          [](const auto&) -> json { return json::object(); },
      },
      op);
}

Op op_from_json(const std::string& name, const json& attrs, const std::string& context) {
  const auto& readers = op_readers();
  const auto it = readers.find(name);
  if (it == readers.end()) throw GraphError(context + ": unknown operator '" + name + "'");
  return it->second(AttrReader(attrs, context));
}

}  // namespace layoutopt::graph
