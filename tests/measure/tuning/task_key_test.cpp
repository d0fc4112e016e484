#include <doctest/doctest.h>

#include <set>

#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/task_args.h"
#include "layoutopt/tuning/task_key.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

using namespace layoutopt;
using tuning::TaskKey;

namespace {

TaskKey conv_key() {
  return {.family = tuning::TaskFamily::conv2d,
          .data = {1, 64, 56, 56},
          .weight = {128, 64, 3, 3},
          .strides = {2, 2},
          .padding = {1, 1, 1, 1},
          .dilation = {1, 1},
          .layout = "NCHW",
          .out_layout = "NCHW"};
}

}  // namespace

TEST_CASE("task keys are ordered and equal field by field") {
  const TaskKey a = conv_key();
  TaskKey b = a;
  CHECK(a == b);
  CHECK_FALSE(a < b);
  b.padding[3] = 2;
  CHECK(a != b);
  CHECK(a < b);
  TaskKey winograd = a;
  winograd.family = tuning::TaskFamily::winograd_conv2d;
  CHECK(a != winograd);  // same workload, another algorithm: another task
  const std::set<TaskKey> keys{b, winograd, a, a};
  CHECK(keys.size() == 3);
  CHECK(*keys.begin() == a);
  CHECK(a.name() == "conv2d_NCHWc.x86");
  CHECK(a.describe() == "[1,64,56,56] w[128,64,3,3] s2");
  CHECK(a.text() != b.text());
}

TEST_CASE("a task key survives AutoTVM's arguments and a record line, and reads back as its task's") {
  const graph::Graph g = graph::zoo::build("mobilenet-v2");
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(g);
  std::set<tuning::TaskFamily> families;
  for (const tuning::TuningTask& task : tasks) {
    const TaskKey key = task.task_key();
    families.insert(key.family);
    CHECK(key.name() == task.name);
    CHECK(tuning::task_key_of(task.name, tuning::autotvm_args(key)) == key);
    tuning::MeasureResult result;
    result.costs_s = {1e-4};
    const tuning::MeasureRecord back =
        tuning::parse_record(tuning::to_json_line(tuning::make_record("llvm", task, task.op.default_index(), result)));
    CHECK(back.task == key);
    CHECK(tuning::TaskIndex(tasks).find(back, "llvm").has_value());
  }
  CHECK(families.size() >= 3);  // conv2d, depthwise, dense at least
}

TEST_CASE("a record of another template or argument form has no key and is written back unchanged") {
  const std::string line =
      R"x({"input":["llvm","dense_pack.x86",[["TENSOR",[1,512],"float32"],["TENSOR",[1000,512],"float32"],null,"float32"],{}],)x"
      R"x("config":{"index":3,"code_hash":null,"entity":[["tile_y","ot",1]]},"result":[[0.001],0,0.1,1.0],)x"
      R"x("version":0.2,"tvm_version":"0.x (layoutopt)"})x";
  const tuning::MeasureRecord record = tuning::parse_record(line);
  CHECK_FALSE(record.task.has_value());
  CHECK(tuning::to_json_line(record) == line);
  // Our name, but arguments autotvm_args would not write (a stride as a float): no key.
  nlohmann::json args = tuning::autotvm_args(conv_key());
  args[2] = nlohmann::json::array({2.0, 2});
  CHECK_FALSE(tuning::task_key_of("conv2d_NCHWc.x86", args).has_value());
  CHECK_FALSE(tuning::task_key_of("conv2d_NCHWc.x86", nlohmann::json::array({1, 2})).has_value());
}
