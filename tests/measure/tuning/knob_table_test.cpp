#include <doctest/doctest.h>

#include <set>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

using namespace layoutopt;

namespace {

// Every knob of `space` is declared in `table` with the kind the space gave it.
void check_declared(const kernels::ConfigSpace& space, std::span<const kernels::KnobDecl> table, const std::string& what) {
  for (const kernels::Knob& knob : space.knobs()) {
    INFO(what << ": knob " << knob.name);
    const kernels::KnobDecl* decl = kernels::find_knob(table, knob.name);
    REQUIRE(decl != nullptr);
    CHECK(decl->kind == (knob.searched ? kernels::KnobKind::searched : kernels::KnobKind::derived));
    // A boolean is 0 and 1, or 0 alone where the workload cannot switch it on (flat_pixels).
    if (decl->type == kernels::KnobType::boolean)
      CHECK((knob.values == std::vector<int64_t>{0, 1} || knob.values == std::vector<int64_t>{0}));
  }
}

}  // namespace

TEST_CASE("every knob a config space yields is declared in its family's table with its kind") {
  std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph::zoo::build("resnet-18"));
  for (const tuning::TuningTask& task : tuning::extract_tasks(graph::zoo::build("mobilenet-v2"))) tasks.push_back(task);
  kernels::Conv2dDesc grouped;
  grouped.in_channels = grouped.out_channels = 32;
  grouped.groups = 4;
  grouped.in_h = grouped.in_w = 8;
  grouped.kernel_h = grouped.kernel_w = 3;
  tasks.push_back(tuning::make_task(kernels::TunableOp::conv2d(grouped)));
  kernels::Conv2dDesc pointwise;  // shufflenet's 58 channels: the GEMM over pixels
  pointwise.in_channels = pointwise.out_channels = 58;
  pointwise.in_h = pointwise.in_w = 28;
  tasks.push_back(tuning::make_task(kernels::TunableOp::gemm_conv2d(pointwise)));
  std::set<kernels::OpFamily> families;
  for (const tuning::TuningTask& task : tasks) {
    families.insert(task.op.family());
    check_declared(task.op.space(), tuning::knob_table(task.task_key().family), task.name);
  }
  CHECK(families.size() == 6);  // direct, grouped, depthwise, Winograd, dense, GEMM over pixels
  check_declared(kernels::elementwise_space(100000), kernels::knobs::elementwise::table, "elementwise");
}

TEST_CASE("a record with a knob its family does not declare is refused, naming the knob") {
  tuning::MeasureResult result;
  result.costs_s = {1e-4};
  const tuning::TuningTask task = tuning::extract_tasks(graph::zoo::build("resnet-18")).front();
  tuning::MeasureRecord record = tuning::make_record("llvm", task, 0, result);
  record.knobs.emplace_back("tile_zz", 4);
  const std::string line = tuning::to_json_line(record);
  CHECK_THROWS_WITH_AS(tuning::parse_record(line), doctest::Contains("tile_zz"), tuning::RecordError);
  // A depthwise record in AutoTVM's spelling (tile_ic, tile_oc, unroll_kw) still reads.
  CHECK(kernels::find_knob(kernels::knobs::depthwise_conv2d::table, "unroll_kw")->kind == kernels::KnobKind::autotvm_alias);
}
