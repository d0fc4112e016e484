// The MODEL argument as planning commands take it: loaded, then prepared for inference, in
// one call the CLI and the Python module share.

#include "layoutopt/pipeline/load_model.h"

#include <doctest/doctest.h>

#include <string>

#include "layoutopt/graph/passes/pipeline.h"

using namespace layoutopt;

namespace {

const std::string kTiny = LAYOUTOPT_SOURCE_DIR "/data/onnx/tiny-convnet.onnx";

}  // namespace

TEST_CASE("a prepared model is the loaded model after prepare_for_inference, and says what preparing did") {
  pipeline::LoadedModel loaded = pipeline::load_model(kTiny);
  CHECK_FALSE(loaded.preparation.has_value());
  const graph::PipelineReport expected = graph::prepare_for_inference(loaded.graph);

  const pipeline::LoadedModel prepared = pipeline::load_prepared_model(kTiny);
  REQUIRE(prepared.preparation.has_value());
  CHECK(prepared.preparation->summary() == expected.summary());
  CHECK(prepared.graph.nodes().size() == loaded.graph.nodes().size());
  CHECK(prepared.source == loaded.source);
}
