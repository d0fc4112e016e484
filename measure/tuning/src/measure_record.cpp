#include "layoutopt/tuning/measure_record.h"

#include <limits>
#include <numeric>

#include "layoutopt/graph/json_number.h"
#include "layoutopt/tuning/task_args.h"

namespace layoutopt::tuning {

namespace {

using nlohmann::json;

// AutoTVM writes this cost for failed trials so that readers taking the minimum skip them.
constexpr double kFailedCost = 1e9;

// As the family's table declares it: a split ("sp", innermost factor last), a flag or a
// count; a knob of a foreign task no table declares is written as a count.
json entity_of(std::optional<TaskFamily> family, const std::string& name, int64_t value) {
  const kernels::KnobDecl* knob = declared_knob(family, name);
  if (knob != nullptr && knob->split) return json::array({name, "sp", json::array({-1, value})});
  if (knob != nullptr && knob->type == kernels::KnobType::boolean) return json::array({name, "ot", value != 0});
  return json::array({name, "ot", value});
}

/// A damaged number is a RecordError, never a truncated value or an out-of-range cast.
template <class T>
T number(const json& value, const char* what) {
  return graph::read_exactly<T, RecordError>(value, what);
}

int64_t entity_value(const json& entity) {
  const std::string kind = entity.at(1).get<std::string>();
  const json& value = entity.at(2);
  if (kind == "sp") {
    if (!value.is_array() || value.empty()) throw RecordError("split knob without factors");
    return number<int64_t>(value.back(), "split factor");
  }
  if (kind != "ot") throw RecordError("knob kind '" + kind + "' is not used by x86 conv/dense templates");
  if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
  return number<int64_t>(value, "knob value");
}

KnobValues knobs_of(const json& entities, const std::optional<TaskKey>& task) {
  if (!entities.is_array()) throw RecordError("config.entity is not a list");
  KnobValues knobs;
  for (const json& entity : entities) {
    if (!entity.is_array() || entity.size() != 3) throw RecordError("config entity is not [name, kind, value]");
    std::string name = entity.at(0).get<std::string>();
    if (task && declared_knob(task->family, name) == nullptr)
      throw RecordError("knob '" + name + "' is not a knob of " + std::string(task->name()));
    knobs.emplace_back(std::move(name), entity_value(entity));
  }
  return knobs;
}

MeasureResult result_of(const json& r) {
  if (!r.is_array() || r.size() != 4) throw RecordError("result is not [costs, error_no, all_cost, timestamp]");
  MeasureResult result;
  result.error_no = number<int>(r.at(1), "error_no");
  if (result.error_no == 0) result.costs_s = number<std::vector<double>>(r.at(0), "costs");
  if (result.error_no == 0 && result.costs_s.empty()) throw RecordError("successful result without costs");
  result.all_cost_s = number<double>(r.at(2), "all_cost");
  result.timestamp = number<double>(r.at(3), "timestamp");
  return result;
}

MeasureRecord record_of(const json& j) {
  if (!j.is_object()) throw RecordError("not a JSON object");
  if (!j.contains("input") || !j.contains("config") || !j.contains("result"))
    throw RecordError("missing \"input\", \"config\" or \"result\" (not an AutoTVM v0.2 record)");
  const json& input = j.at("input");
  if (!input.is_array() || input.size() < 3) throw RecordError("input is not [target, task_name, args, kwargs]");
  MeasureRecord record;
  record.target = input.at(0).get<std::string>();
  const std::string name = input.at(1).get<std::string>();
  record.task = task_key_of(name, input.at(2));
  if (!record.task) record.foreign_task = json::array({name, input.at(2)});
  record.config_index = number<int64_t>(j.at("config").at("index"), "config index");
  record.knobs = knobs_of(j.at("config").at("entity"), record.task);
  record.result = result_of(j.at("result"));
  return record;
}

}  // namespace

double MeasureResult::seconds() const {
  if (!ok()) return std::numeric_limits<double>::infinity();
  return std::accumulate(costs_s.begin(), costs_s.end(), 0.0) / static_cast<double>(costs_s.size());
}

std::string to_json_line(const MeasureRecord& record) {
  json entities = json::array();
  const std::optional<TaskFamily> family = record.task ? std::optional(record.task->family) : std::nullopt;
  for (const auto& [name, value] : record.knobs) entities.push_back(entity_of(family, name, value));
  const json task = record.task ? json::array({record.task->name(), autotvm_args(*record.task)})
                                : record.foreign_task.is_array() && record.foreign_task.size() == 2
                                    ? record.foreign_task
                                    : json::array({nullptr, nullptr});
  const MeasureResult& r = record.result;
  const json costs = r.error_no == 0 ? json(r.costs_s) : json::array({kFailedCost});
  // ordered_json keeps AutoTVM's key order (input, config, result, ...) for human readers.
  const nlohmann::ordered_json line = {
      {"input", json::array({record.target, task.at(0), task.at(1), json::object()})},
      {"config", {{"index", record.config_index}, {"code_hash", nullptr}, {"entity", entities}}},
      {"result", json::array({costs, r.error_no, r.all_cost_s, r.timestamp})},
      {"version", 0.2},
      {"tvm_version", "0.x (layoutopt)"}};
  return line.dump();
}

MeasureRecord parse_record(std::string_view line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    throw RecordError(std::string("not valid JSON (truncated or corrupt line?): ") + e.what());
  }
  try {
    return record_of(j);
  } catch (const json::exception& e) {
    throw RecordError(std::string("unexpected record structure: ") + e.what());
  }
}

}  // namespace layoutopt::tuning
