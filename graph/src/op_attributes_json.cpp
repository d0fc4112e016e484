#include "op_attributes_json.h"

#include <functional>
#include <map>
#include <vector>

#include "layoutopt/graph/overloaded.h"

namespace layoutopt::graph {

namespace {

using nlohmann::json;

json hw(Hw v) { return {v.h, v.w}; }
json pads(const Pads2d& p) { return {p.top, p.left, p.bottom, p.right}; }

// Each enum's stable lower-case names, by switch so that a new enumerator without a name
// fails to compile (-Wswitch). Past the last enumerator they return nullptr, which ends the
// scan `all_of` makes for parsing.
const char* name_of(Activation a) {
  switch (a) {
    case Activation::none: return "none";
    case Activation::relu: return "relu";
    case Activation::relu6: return "relu6";
    case Activation::hard_swish: return "hard_swish";
    case Activation::hard_sigmoid: return "hard_sigmoid";
    case Activation::silu: return "silu";
    case Activation::sigmoid: return "sigmoid";
    case Activation::gelu: return "gelu";
    case Activation::gelu_tanh: return "gelu_tanh";
  }
  return nullptr;
}
const char* name_of(ResizeMode mode) {
  switch (mode) {
    case ResizeMode::nearest: return "nearest";
    case ResizeMode::linear: return "linear";
  }
  return nullptr;
}
const char* name_of(ResizeCoordinates coordinates) {
  switch (coordinates) {
    case ResizeCoordinates::half_pixel: return "half_pixel";
    case ResizeCoordinates::pytorch_half_pixel: return "pytorch_half_pixel";
    case ResizeCoordinates::align_corners: return "align_corners";
    case ResizeCoordinates::asymmetric: return "asymmetric";
  }
  return nullptr;
}
const char* name_of(GeluForm form) {
  switch (form) {
    case GeluForm::exact: return "exact";
    case GeluForm::tanh: return "tanh";
  }
  return nullptr;
}
const char* name_of(NearestRounding rounding) {
  switch (rounding) {
    case NearestRounding::round_prefer_floor: return "round_prefer_floor";
    case NearestRounding::round_prefer_ceil: return "round_prefer_ceil";
    case NearestRounding::floor: return "floor";
    case NearestRounding::ceil: return "ceil";
  }
  return nullptr;
}

/// Every enumerator of E in order (these enums count up from 0 without gaps).
template <class E>
std::vector<E> all_of() {
  std::vector<E> values;
  for (int i = 0; name_of(static_cast<E>(i)) != nullptr; ++i) values.push_back(static_cast<E>(i));
  return values;
}

/// "a, b or c": the accepted names, for error messages.
template <class E>
std::string names_list() {
  const std::vector<E> values = all_of<E>();
  std::string list;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) list += i + 1 == values.size() ? " or " : ", ";
    list += name_of(values[i]);
  }
  return list;
}

json epilogue(const Epilogue& e) {
  return {{"bias", e.bias},
          {"activation", name_of(e.activation)},
          {"residual", e.residual},
          {"post_activation", name_of(e.post_activation)}};
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
  template <class E>
  E enumeration(const json& doc, const char* key) const {
    const auto name = require<std::string>(doc, key, context_);
    for (E value : all_of<E>())
      if (name == name_of(value)) return value;
    fail(key, names_list<E>());
  }
  template <class E>
  E enumeration(const char* key) const { return enumeration<E>(attrs_, key); }
  /// Absent in graphs written before the attribute existed: no activation.
  Activation optional_activation(const char* key) const {
    return attrs_.contains(key) ? enumeration<Activation>(key) : Activation::none;
  }
  /// Absent in graphs written before the flag existed (or written false): off.
  bool optional_flag(const char* key) const { return attrs_.contains(key) && get<bool>(key); }
  /// {"activation": name}; absent in graphs without one (and written before it existed).
  std::optional<InputPrologue> optional_prologue(const char* key) const {
    if (!attrs_.contains(key)) return std::nullopt;
    return InputPrologue{.activation = enumeration<Activation>(get<json>(key), "activation")};
  }
  Epilogue epilogue() const {
    const json doc = get<json>("epilogue");
    return {.bias = require<bool>(doc, "bias", context_),
            .activation = enumeration<Activation>(doc, "activation"),
            .residual = require<bool>(doc, "residual", context_),
            .post_activation = enumeration<Activation>(doc, "post_activation")};
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

Op read_conv_transpose(const AttrReader& r) {
  return ConvTranspose2d{.kernel = r.hw("kernel"),
                         .stride = r.hw("stride"),
                         .dilation = r.hw("dilation"),
                         .pads = r.pads("pads"),
                         .output_padding = r.hw("output_padding"),
                         .groups = r.get<int64_t>("groups"),
                         .bias = r.get<bool>("bias")};
}

Op read_resize(const AttrReader& r) {
  return Resize{.mode = r.enumeration<ResizeMode>("mode"),
                .coordinates = r.enumeration<ResizeCoordinates>("coordinates"),
                .rounding = r.enumeration<NearestRounding>("rounding"),
                .size = r.hw("size"),
                .scale_h = r.get<double>("scale_h"),
                .scale_w = r.get<double>("scale_w")};
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
                       .epilogue = r.epilogue(),
                       .input_scale = r.optional_flag("input_scale"),
                       .prologue = r.optional_prologue("prologue")};
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
      {"tanh", [](const AttrReader&) -> Op { return Tanh{}; }},
      {"hard_sigmoid",
       [](const AttrReader& r) -> Op {
         return HardSigmoid{.alpha = r.get<float>("alpha"), .beta = r.get<float>("beta")};
       }},
      {"hard_swish", [](const AttrReader&) -> Op { return HardSwish{}; }},
      {"silu", [](const AttrReader&) -> Op { return Silu{}; }},
      {"gelu", [](const AttrReader& r) -> Op { return Gelu{.form = r.enumeration<GeluForm>("form")}; }},
      {"batch_matmul", [](const AttrReader&) -> Op { return BatchMatMul{}; }},
      {"layer_norm",
       [](const AttrReader& r) -> Op {
         return LayerNorm{.axis = r.get<int64_t>("axis"), .epsilon = r.get<float>("epsilon")};
       }},
      {"leaky_relu", [](const AttrReader& r) -> Op { return LeakyRelu{.alpha = r.get<float>("alpha")}; }},
      {"prelu", [](const AttrReader&) -> Op { return PRelu{}; }},
      {"sub", [](const AttrReader&) -> Op { return Sub{}; }},
      {"div", [](const AttrReader&) -> Op { return Div{}; }},
      {"max", [](const AttrReader&) -> Op { return Max{}; }},
      {"min", [](const AttrReader&) -> Op { return Min{}; }},
      {"reduce_mean",
       [](const AttrReader& r) -> Op {
         return ReduceMean{.axes = r.get<std::vector<int64_t>>("axes"), .keep_dims = r.get<bool>("keep_dims")};
       }},
      {"conv_transpose2d", read_conv_transpose},
      {"lrn",
       [](const AttrReader& r) -> Op {
         return Lrn{.size = r.get<int64_t>("size"),
                    .alpha = r.get<float>("alpha"),
                    .beta = r.get<float>("beta"),
                    .bias = r.get<float>("bias")};
       }},
      {"resize", read_resize},
      {"slice",
       [](const AttrReader& r) -> Op {
         return Slice{.axis = r.get<int64_t>("axis"),
                      .start = r.get<int64_t>("start"),
                      .end = r.get<int64_t>("end"),
                      .step = r.get<int64_t>("step")};
       }},
      {"channel_shuffle", [](const AttrReader& r) -> Op { return ChannelShuffle{.groups = r.get<int64_t>("groups")}; }},
  };
  return readers;
}

}  // namespace

json op_attributes_to_json(const Op& op) {
  return std::visit(
      Overloaded{
          [](const Conv2d& c) -> json {
            json attrs = {{"kernel", hw(c.kernel)}, {"stride", hw(c.stride)}, {"dilation", hw(c.dilation)},
                          {"pads", pads(c.pads)},   {"groups", c.groups},     {"epilogue", epilogue(c.epilogue)}};
            // Written only when set, so files of unscaled graphs stay as they were.
            if (c.input_scale) attrs["input_scale"] = true;
            if (c.prologue) attrs["prologue"] = {{"activation", name_of(c.prologue->activation)}};
            return attrs;
          },
          [](const Dense& d) -> json { return {{"epilogue", epilogue(d.epilogue)}}; },
          [](const BatchNorm& b) -> json {
            return {{"epsilon", b.epsilon}, {"activation", name_of(b.activation)}};
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
          [](const HardSigmoid& h) -> json { return {{"alpha", h.alpha}, {"beta", h.beta}}; },
          [](const LeakyRelu& l) -> json { return {{"alpha", l.alpha}}; },
          [](const ReduceMean& r) -> json { return {{"axes", r.axes}, {"keep_dims", r.keep_dims}}; },
          [](const ConvTranspose2d& c) -> json {
            return {{"kernel", hw(c.kernel)}, {"stride", hw(c.stride)},
                    {"dilation", hw(c.dilation)}, {"pads", pads(c.pads)},
                    {"output_padding", hw(c.output_padding)}, {"groups", c.groups},
                    {"bias", c.bias}};
          },
          [](const Lrn& l) -> json {
            return {{"size", l.size}, {"alpha", l.alpha}, {"beta", l.beta}, {"bias", l.bias}};
          },
          [](const Resize& r) -> json {
            return {{"mode", name_of(r.mode)}, {"coordinates", name_of(r.coordinates)},
                    {"rounding", name_of(r.rounding)}, {"size", hw(r.size)},
                    {"scale_h", r.scale_h}, {"scale_w", r.scale_w}};
          },
          [](const Slice& s) -> json {
            return {{"axis", s.axis}, {"start", s.start}, {"end", s.end}, {"step", s.step}};
          },
          [](const ChannelShuffle& c) -> json { return {{"groups", c.groups}}; },
          [](const Gelu& g) -> json { return {{"form", name_of(g.form)}}; },
          [](const LayerNorm& l) -> json { return {{"axis", l.axis}, {"epsilon", l.epsilon}}; },
          // relu, sigmoid, add, mul, sub, div, max, min, global pool, identity, tanh, hard swish, silu, prelu,
          // batch_matmul
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
