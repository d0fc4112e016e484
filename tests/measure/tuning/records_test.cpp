#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/task_args.h"
#include "layoutopt/tuning/tuning_session.h"
#include "tuning_fixtures.h"

using namespace layoutopt::tuning;
using layoutopt::testing::ScratchFile;
using layoutopt::testing::small_conv_task;

namespace {

// A line of a real AutoTVM x86 log (TVM 0.10, ResNet's first conv).
const char* const kAutoTvmLine =
    R"({"input": ["llvm -keys=cpu ", "conv2d_NCHWc.x86", [["TENSOR", [1, 3, 224, 224], "float32"], )"
    R"(["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"], {}], )"
    R"("config": {"index": 172, "code_hash": null, "entity": [["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], )"
    R"(["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]]}, "result": [[0.0045656413], 0, 0.5309267044067383, )"
    R"(1676344759.520081], "version": 0.2, "tvm_version": "0.10.0"})";

MeasureRecord sample_record(int64_t index) {
  const TuningTask task = small_conv_task();
  MeasureResult result;
  result.costs_s = {1.5e-4};
  result.all_cost_s = 0.25;
  result.timestamp = 1716810000.5;
  return make_record("llvm -mcpu=znver5", task, index, result);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace

TEST_CASE("a record survives its JSON line unchanged") {
  const MeasureRecord record = sample_record(37);
  const MeasureRecord back = parse_record(to_json_line(record));
  CHECK(back.target == record.target);
  REQUIRE(back.task.has_value());
  CHECK(back.task->name() == "conv2d_NCHWc.x86");
  CHECK(back.task == record.task);
  CHECK(back.config_index == 37);
  CHECK(back.knobs == record.knobs);
  CHECK(back.result.costs_s == record.result.costs_s);
  CHECK(back.result.error_no == 0);
  CHECK(back.result.timestamp == doctest::Approx(record.result.timestamp));
  CHECK(back.task_key() == small_conv_task().task_key());
}

TEST_CASE("records are written in AutoTVM's v0.2 layout") {
  const auto j = nlohmann::json::parse(to_json_line(sample_record(0)));
  CHECK(j.at("version") == 0.2);
  CHECK(j.at("input").size() == 4);
  CHECK(j.at("input").at(2) == autotvm_args(small_conv_task().task_key()));
  const auto& entity = j.at("config").at("entity");
  CHECK(entity.at(0) == nlohmann::json::parse(R"(["tile_ic", "sp", [-1, 1]])"));
  CHECK(entity.at(3).at(1) == "ot");
  CHECK(entity.at(3).at(2).is_boolean());
  CHECK(j.at("config").at("code_hash").is_null());
}

TEST_CASE("a failed trial is written with AutoTVM's 1e9 cost and read back as failed") {
  MeasureRecord record = sample_record(3);
  record.result = {};
  record.result.error_no = static_cast<int>(MeasureErrorNo::instantiation_error);
  const std::string line = to_json_line(record);
  CHECK(nlohmann::json::parse(line).at("result").at(0).at(0) == 1e9);
  const MeasureRecord back = parse_record(line);
  CHECK_FALSE(back.result.ok());
  CHECK(back.result.error_no == 1);
}

TEST_CASE("a real AutoTVM x86 record is read and maps onto our task and space") {
  const MeasureRecord record = parse_record(kAutoTvmLine);
  CHECK(record.target == "llvm -keys=cpu ");
  REQUIRE(record.task.has_value());
  CHECK(record.task->name() == "conv2d_NCHWc.x86");
  CHECK(record.config_index == 172);
  CHECK(record.result.seconds() == doctest::Approx(0.0045656413));
  CHECK(record.knob_map() == std::map<std::string, int64_t>{{"tile_ic", 1}, {"tile_oc", 4}, {"tile_ow", 1}, {"unroll_kw", 0}});

  layoutopt::kernels::Conv2dDesc d;
  d.in_channels = 3;
  d.out_channels = 64;
  d.in_h = d.in_w = 224;
  d.kernel_h = d.kernel_w = 7;
  d.stride_h = d.stride_w = 2;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 3;
  const TuningTask task = make_task(layoutopt::kernels::TunableOp::conv2d(d));
  CHECK(task.task_key() == record.task_key());
  const auto index = task.config_index(record.knob_map());
  REQUIRE(index.has_value());
  const auto knobs = task.op.knobs(*index);
  CHECK(knobs.at("tile_oc") == 4);
  CHECK(knobs.at("tile_oh") == 1);
  CHECK(task.op.layouts(*index).output.str() == "NCHW4c");
}

TEST_CASE("corrupt and foreign lines are reported with their line number and skipped") {
  const ScratchFile log("corrupt.jsonl");
  write_text(log.path(), to_json_line(sample_record(1)) + "\n" +         // 1 fine
                             "# a comment\n\n" +                          // 2, 3 ignored
                             "{not json\n" +                              // 4
                             R"({"i": ["llvm", "x", [], {}], "r": [], "v": 0.1})" + "\n" +  // 5 AutoTVM v0.1
                             R"({"input": ["llvm", "t", []], "config": {"index": 0, "entity": [["x", "re", [0, 1]]]}, "result": [[1], 0, 0, 0]})" +
                             "\n" +                                       // 6 unsupported knob kind
                             kAutoTvmLine + "\n" +                        // 7 fine
                             to_json_line(sample_record(2)) + "\n");      // 8 fine
  const LoadedLog loaded = load_record_log(log.path());
  CHECK(loaded.records.size() == 3);
  REQUIRE(loaded.issues.size() == 3);
  CHECK(loaded.issues[0].line == 4);
  CHECK(loaded.issues[0].reason.find("not valid JSON") != std::string::npos);
  CHECK(loaded.issues[1].line == 5);
  CHECK(loaded.issues[1].reason.find("v0.2") != std::string::npos);
  CHECK(loaded.issues[2].line == 6);
  CHECK(loaded.issues[2].reason.find("'re'") != std::string::npos);
  const std::string report = describe_issues(log.path(), loaded.issues);
  CHECK(report.find("line 4:") != std::string::npos);
  CHECK(report.find("skipped 3 unreadable lines") != std::string::npos);
}

TEST_CASE("records of another CPU give one warning with counts") {
  std::vector<MeasureRecord> records{sample_record(1), sample_record(2), sample_record(3)};
  records[2].target = "llvm -mcpu=skylake-avx512";
  const auto warning = foreign_target_warning(records, "llvm -mcpu=znver5");
  REQUIRE(warning.has_value());
  CHECK(warning->find("1 for 'llvm -mcpu=skylake-avx512'") != std::string::npos);
  CHECK(warning->find("(2 records are)") != std::string::npos);
  CHECK_FALSE(foreign_target_warning({records[0]}, "llvm -mcpu=znver5").has_value());
}

TEST_CASE("kill safety: a torn last line is reported and skipped, earlier records kept, appends continue") {
  const ScratchFile log("torn.jsonl");
  {
    RecordWriter writer(log.path());
    for (int64_t i = 0; i < 5; ++i) writer.append(sample_record(i));
  }
  // Simulate kill -9 in the middle of the last write: cut the file inside line 5.
  const auto size = std::filesystem::file_size(log.path());
  std::filesystem::resize_file(log.path(), size - 40);
  LoadedLog loaded = load_record_log(log.path());
  CHECK(loaded.records.size() == 4);
  REQUIRE(loaded.issues.size() == 1);
  CHECK(loaded.issues[0].line == 5);

  // The next run appends after the fragment without gluing onto it.
  {
    RecordWriter writer(log.path());
    writer.append(sample_record(9));
  }
  loaded = load_record_log(log.path());
  CHECK(loaded.records.size() == 5);
  CHECK(loaded.records.back().config_index == 9);
  CHECK(loaded.issues.size() == 1);
}

TEST_CASE("the writer only appends: existing content is never rewritten") {
  const ScratchFile log("append.jsonl");
  write_text(log.path(), "# user notes\n" + to_json_line(sample_record(1)) + "\n");
  {
    RecordWriter writer(log.path());
    writer.append(sample_record(2));
  }
  std::ifstream in(log.path());
  std::string first;
  std::getline(in, first);
  CHECK(first == "# user notes");
  CHECK(load_record_log(log.path()).records.size() == 2);
}

TEST_CASE("a missing log is empty, not an error") {
  const ScratchFile log("missing.jsonl");
  const LoadedLog loaded = load_record_log(log.path());
  CHECK(loaded.records.empty());
  CHECK(loaded.issues.empty());
}

TEST_CASE("the writer refuses a file that is not a record log and leaves it as it was") {
  for (const std::string& text : {std::string("{\n \"format\": \"layoutopt-plan\",\n \"version\": 1\n}\n"),
                                  std::string("\x08\x07\x12\x0bpytorch", 11), std::string("model notes\n")}) {
    CAPTURE(text);
    const ScratchFile file("not_a_log.json");
    write_text(file.path(), text);
    CHECK_THROWS_WITH_AS(RecordWriter{file.path()}, doctest::Contains("is not a tuning record log"), std::runtime_error);
    std::ifstream in(file.path(), std::ios::binary);
    CHECK(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()) == text);
  }
  // Logs may start with blank lines, a comment, or a record spaced differently.
  for (const std::string& start : {std::string("\n\n# notes\n"), std::string("{ \"input\": []}\n"), std::string("")}) {
    CAPTURE(start);
    const ScratchFile log("log.jsonl");
    write_text(log.path(), start);
    CHECK_NOTHROW(RecordWriter{log.path()}.append(sample_record(4)));
    CHECK(load_record_log(log.path()).records.size() == 1);
  }
}

TEST_CASE("damaged numbers make a line unreadable, never an escaped exception or a cast out of range") {
  // Found by fuzz/records_fuzz.cpp: "1e999" overflowed the JSON parser (json::out_of_range,
  // not a parse error) and escaped the loader; an error_no of 1e300 was cast to int.
  const std::string line = to_json_line(sample_record(1));
  const auto damaged = [&](const std::string& from, const std::string& to) {
    std::string text = line;
    REQUIRE(text.find(from) != std::string::npos);
    return text.replace(text.find(from), from.size(), to);
  };
  for (const std::string& text : {damaged("\"index\":1", "\"index\":1e999"), damaged("\"index\":1", "\"index\":1.5"),
                                  damaged(",0,0.25,", ",1e300,0.25,"), damaged("[0.00015]", "[true]")})
    CHECK_THROWS_AS((void)parse_record(text), RecordError);
}
