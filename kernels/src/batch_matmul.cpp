#include "layoutopt/kernels/batch_matmul.h"

#include <algorithm>

#include "ceil_div.h"
#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "ops/batched_gemm_emitter.h"
#include "ops/compile_operator.h"

namespace layoutopt::kernels {

namespace {

std::vector<int64_t> leading_axes(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end() - 2}; }

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text;
  for (const int64_t extent : shape) text += (text.empty() ? "" : "x") + std::to_string(extent);
  return text;
}

void require(bool ok, const BatchMatMulDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid batch_matmul desc " + desc.str() + ": " + what);
}

}  // namespace

void BatchMatMulDesc::validate() const {
  require(a_shape.size() >= 2 && b_shape.size() >= 2, *this, "both operands need rank 2 or more");
  require(std::all_of(a_shape.begin(), a_shape.end(), [](int64_t e) { return e > 0; }) &&
              std::all_of(b_shape.begin(), b_shape.end(), [](int64_t e) { return e > 0; }),
          *this, "extents must be positive");
  require(b_shape[b_shape.size() - 2] == k(), *this, "a's columns must equal b's rows");
  const std::vector<int64_t> lead_a = leading_axes(a_shape), lead_b = leading_axes(b_shape);
  for (size_t i = 1; i <= std::min(lead_a.size(), lead_b.size()); ++i) {
    const int64_t ea = lead_a[lead_a.size() - i], eb = lead_b[lead_b.size() - i];
    require(ea == eb || ea == 1 || eb == 1, *this, "leading axes do not broadcast");
  }
}

std::vector<int64_t> BatchMatMulDesc::out_shape() const {
  std::vector<int64_t> lead_a = leading_axes(a_shape), lead_b = leading_axes(b_shape);
  if (lead_a.size() < lead_b.size()) std::swap(lead_a, lead_b);
  std::vector<int64_t> shape = lead_a;  // the longer, right-aligned with the shorter
  const size_t offset = lead_a.size() - lead_b.size();
  for (size_t i = 0; i < lead_b.size(); ++i) shape[offset + i] = std::max(lead_a[offset + i], lead_b[i]);
  shape.push_back(m());
  shape.push_back(n());
  return shape;
}

int64_t BatchMatMulDesc::matrices() const {
  int64_t count = 1;
  for (const int64_t extent : leading_axes(out_shape())) count *= extent;
  return count;
}

double BatchMatMulDesc::flops() const {
  return 2.0 * static_cast<double>(matrices()) * static_cast<double>(m() * k() * n());
}

std::string BatchMatMulDesc::str() const { return "a" + shape_text(a_shape) + "_b" + shape_text(b_shape); }

std::string BatchMatMulSchedule::str() const {
  return "rows" + std::to_string(rows_bn) + "_cols" + std::to_string(cols_bn);
}

BatchMatMulSchedule batch_matmul_default_schedule(const BatchMatMulDesc& desc) {
  desc.validate();
  const int64_t lanes = host_info().vector_lanes;
  BatchMatMulSchedule s;
  s.cols_bn = std::min(desc.n(), 2 * lanes);
  const int64_t chunks = ceil_div(s.cols_bn, lanes);
  // The register file less the row of b (chunks vectors), a broadcast and a spare.
  s.rows_bn = std::clamp<int64_t>((host_info().vector_registers - chunks - 2) / chunks, 1, desc.m());
  return s;
}

void validate_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& s) {
  desc.validate();
  require(s.rows_bn > 0 && s.rows_bn <= desc.m(), desc, "rows_bn must lie in [1, M]");
  require(s.cols_bn > 0 && s.cols_bn <= desc.n(), desc, "cols_bn must lie in [1, N]");
}

Kernel compile_batch_matmul(const BatchMatMulDesc& desc, const BatchMatMulSchedule& schedule) {
  validate_batch_matmul(desc, schedule);
  return Kernel(jit::cached_kernel("batch_matmul|" + desc.str() + "|" + schedule.str(), [&] {
    jit::KernelModule module("batch_matmul");
    ops::BatchedGemmEmitter emitter({desc.a_shape, desc.b_shape, desc.out_shape()}, {schedule.rows_bn, schedule.cols_bn},
                                    {}, module);
    emitter.emit();
    return ops::compile_operator(module, emitter.work_items(), {.weight = true});
  }));
}

}  // namespace layoutopt::kernels
