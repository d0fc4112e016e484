#include "wire.h"

#include <nlohmann/json.hpp>

namespace layoutopt::mpi {

using nlohmann::json;

std::string encode(const RankIntroduction& introduction) {
  const distributed::HostFacts& f = introduction.facts;
  return json{{"host", f.host},
              {"cpu_model", f.cpu_model},
              {"features", f.features},
              {"fma_gflops", f.fma_gflops},
              {"threads", f.threads},
              {"usable_cpus", f.usable_cpus},
              {"tasks", introduction.tasks}}
      .dump();
}

RankIntroduction decode_introduction(const std::string& text) {
  const json j = json::parse(text);
  return {{j.at("host").get<std::string>(), j.at("cpu_model").get<std::string>(),
           j.at("features").get<std::vector<std::string>>(), j.at("fma_gflops").get<double>(), j.at("threads").get<int>(),
           j.at("usable_cpus").get<int>()},
          j.at("tasks").get<std::vector<std::string>>()};
}

namespace {

json work_json(const distributed::Assignment& work) {
  if (const auto* config = std::get_if<distributed::ConfigWork>(&work))
    return {{"config", {config->task, config->config}}};
  // A transform pass as the table stores its key (the entry's other fields are not read back).
  costs::TransformEntry keyed;
  keyed.key = std::get<distributed::TransformPass>(work).key;
  return {{"transform", costs::to_json(keyed)}};
}

distributed::Assignment work_of(const json& j) {
  if (j.contains("config")) return distributed::ConfigWork{j.at("config").at(0).get<int64_t>(), j.at("config").at(1).get<int64_t>()};
  return distributed::TransformPass{costs::entry_from_json(j.at("transform")).key};
}

json result_json(const distributed::WorkResult& result) {
  if (const auto* entry = std::get_if<costs::TransformEntry>(&result)) return {{"entry", costs::to_json(*entry)}};
  const auto& measured = std::get<tuning::MeasureResult>(result);
  return {{"costs", measured.costs_s},
          {"error_no", measured.error_no},
          {"all_cost", measured.all_cost_s},
          {"timestamp", measured.timestamp},
          {"error", measured.error_message}};
}

distributed::WorkResult result_of(const json& j) {
  if (j.contains("entry")) return costs::entry_from_json(j.at("entry"));
  return tuning::MeasureResult{j.at("costs").get<std::vector<double>>(), j.at("error_no").get<int>(),
                               j.at("all_cost").get<double>(), j.at("timestamp").get<double>(),
                               j.at("error").get<std::string>()};
}

}  // namespace

std::string encode(const distributed::Assignment& work) { return work_json(work).dump(); }

distributed::Assignment decode_assignment(const std::string& text) { return work_of(json::parse(text)); }

std::string encode(const distributed::Assignment& work, const distributed::WorkResult& result) {
  return json{{"work", work_json(work)}, {"result", result_json(result)}}.dump();
}

distributed::Completion decode_completion(int worker, const std::string& text) {
  const json j = json::parse(text);
  return {worker, work_of(j.at("work")), result_of(j.at("result"))};
}

}  // namespace layoutopt::mpi
