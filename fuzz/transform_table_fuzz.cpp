// Fuzz target: a transform table (measure/costs transform_table.h) as TransformTable::load
// reads it, then saved and read again: readable entries and the unreadable ones kept verbatim
// must both survive. A file that is no table is rejected with std::runtime_error.
#include <cstdlib>
#include <stdexcept>

#include "fuzz_input.h"
#include "layoutopt/costs/transform_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt;
  const std::optional<nlohmann::json> document = fuzz::parse_json(data, size);
  if (!document) return 0;
  fuzz::rejecting_only<std::runtime_error>([&] {
    const costs::TransformTable table = costs::TransformTable::from_json(*document);
    for (const costs::TransformEntry& entry : table.entries())
      if (table.find(entry.target, entry.threads, entry.key) == nullptr) std::abort();
    const nlohmann::json saved = table.to_json();
    if (costs::TransformTable::from_json(saved).to_json() != saved) std::abort();  // lost in the round trip
  });
  return 0;
}
