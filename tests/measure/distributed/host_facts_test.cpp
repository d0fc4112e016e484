// The host-fact check distributed tuning runs before timing.

#include <doctest/doctest.h>

#include "layoutopt/distributed/host_facts.h"

namespace layoutopt::distributed {

namespace {

HostFacts host(const std::string& name) { return {name, "Intel Xeon", {"avx2", "fma", "avx512f"}, 100.0, 1, 2}; }

bool names(const std::optional<std::string>& refusal, const std::string& text) {
  return refusal && refusal->find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("host facts: identical hosts may tune together") {
  CHECK_FALSE(host_mismatch({host("a"), host("b"), host("c")}, {}).has_value());
  CHECK_FALSE(host_mismatch({host("a")}, {}).has_value());
}

TEST_CASE("host facts: the odd rank is named with what differs") {
  std::vector<HostFacts> ranks{host("a"), host("b"), host("c")};
  ranks[2].cpu_model = "AMD EPYC";
  CHECK(names(host_mismatch(ranks, {}), "rank 2 (c) has CPU 'AMD EPYC'"));
  ranks[2] = host("c");
  ranks[1].features.pop_back();
  CHECK(names(host_mismatch(ranks, {}), "rank 1 (b) has features"));
  ranks[1] = host("b");
  ranks[1].threads = 2;
  CHECK(names(host_mismatch(ranks, {}), "rank 1 (b) times on 2 threads"));
}

TEST_CASE("host facts: the FMA peak may differ within the tolerance only") {
  std::vector<HostFacts> ranks{host("a"), host("b")};
  ranks[1].fma_gflops = 110;
  CHECK_FALSE(host_mismatch(ranks, {0.15, false}).has_value());
  ranks[1].fma_gflops = 80;
  CHECK(names(host_mismatch(ranks, {0.15, false}), "rank 1 (b) measured an FMA peak of 80"));
  // Two ranks of one machine (the testing flag) measured their peaks against each other.
  ranks[1].host = "a";
  CHECK_FALSE(host_mismatch(ranks, {0.15, true}).has_value());
}

TEST_CASE("host facts: a rank bound to fewer CPUs than its threads is refused") {
  std::vector<HostFacts> ranks{host("a"), host("b")};
  ranks[0].threads = ranks[1].threads = 2;
  ranks[1].usable_cpus = 1;
  CHECK(names(host_mismatch(ranks, {}), "rank 1 (b) may run on 1 CPU(s) but times on 2 threads"));
}

TEST_CASE("host facts: ranks sharing a host are refused unless a test allows it") {
  const std::vector<HostFacts> ranks{host("a"), host("b"), host("a")};
  CHECK(names(host_mismatch(ranks, {}), "ranks 0 and 2 both run on a"));
  CHECK_FALSE(host_mismatch(ranks, {0.15, true}).has_value());
}

}  // namespace layoutopt::distributed
