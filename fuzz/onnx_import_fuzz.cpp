// Fuzz target: an ONNX file as the CLI reads it. Import (parse, canonicalization, constant
// folding, conversion, shape inference, validation) and the inference preparation every
// later step runs on the imported graph. Rejections are GraphError.
#include "fuzz_input.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt;
  fuzz::rejecting_only<graph::GraphError>([&] {
    // Under the sanitizers each folded element costs about a microsecond: a lower limit on
    // grown constants keeps one input within libFuzzer's timeout and still folds every
    // shape subgraph of the seeds.
    const graph::onnx::ImportOptions options{.max_folded_elements = int64_t{1} << 16};
    graph::onnx::ImportResult imported = graph::onnx::import_onnx_bytes(fuzz::as_text(data, size), "fuzz.onnx", options);
    (void)graph::prepare_for_inference(imported.graph);
  });
  return 0;
}
