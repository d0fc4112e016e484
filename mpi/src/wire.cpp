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

std::string encode(const distributed::Assignment& work) { return json{work.task, work.config}.dump(); }

distributed::Assignment decode_assignment(const std::string& text) {
  const json j = json::parse(text);
  return {j.at(0).get<int64_t>(), j.at(1).get<int64_t>()};
}

std::string encode(const distributed::Assignment& work, const tuning::MeasureResult& result) {
  return json{{"work", {work.task, work.config}},
              {"costs", result.costs_s},
              {"error_no", result.error_no},
              {"all_cost", result.all_cost_s},
              {"timestamp", result.timestamp},
              {"error", result.error_message}}
      .dump();
}

distributed::Completion decode_completion(int worker, const std::string& text) {
  const json j = json::parse(text);
  tuning::MeasureResult result{j.at("costs").get<std::vector<double>>(), j.at("error_no").get<int>(),
                               j.at("all_cost").get<double>(), j.at("timestamp").get<double>(),
                               j.at("error").get<std::string>()};
  return {worker, {j.at("work").at(0).get<int64_t>(), j.at("work").at(1).get<int64_t>()}, std::move(result)};
}

}  // namespace layoutopt::mpi
