// Fuzz target: a tuning record log (measure/tuning record_log.h) read by the loader, which
// skips lines that are not records (RecordError inside, reported as issues). Every record it
// keeps must survive the writer's round trip.
#include <cstdlib>

#include "fuzz_input.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/record_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt;
  const fuzz::MemoryFile file(data, size);
  const tuning::LoadedLog log = tuning::load_record_log(file.path());
  for (const tuning::MeasureRecord& record : log.records) {
    (void)record.task_key();
    (void)record.result.seconds();
    const std::string line = tuning::to_json_line(record);
    if (tuning::to_json_line(tuning::parse_record(line)) != line) std::abort();  // lost in the round trip
  }
  (void)tuning::describe_issues(file.path(), log.issues);
  (void)tuning::foreign_target_warning(log.records, "llvm -mcpu=x86-64");
  return 0;
}
