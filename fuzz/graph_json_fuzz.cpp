// Fuzz target: a graph in the project's JSON format (graph/json_io.h), as load_json reads it,
// then written back and read again: a graph that loads must round-trip. Rejections are
// GraphError.
#include <cstdlib>

#include "fuzz_input.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/json_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt;
  const std::optional<nlohmann::json> document = fuzz::parse_json(data, size);
  if (!document) return 0;
  fuzz::rejecting_only<graph::GraphError>([&] {
    const graph::Graph loaded = graph::graph_from_json(*document);
    const nlohmann::json saved = graph::to_json(loaded);
    if (graph::to_json(graph::graph_from_json(saved)) != saved) std::abort();  // lost in the round trip
  });
  return 0;
}
