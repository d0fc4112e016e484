// Calls into the libraries whose private dependencies are the hard ones to find: kernels
// (LLVM), ONNX import (protobuf) and the tuner's cost model (XGBoost), besides graph and zoo,
// all linked from the installed package with what its config found.
#include <exception>
#include <iostream>
#include <vector>

#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/tuning/xgboost_model.h"

int main() {
  layoutopt::graph::Graph g = layoutopt::graph::zoo::build("resnet-18", {.batch = 1, .seed = 3, .image_size = 224});
  layoutopt::graph::prepare_for_inference(g);
  const layoutopt::kernels::NetworkSchedule schedule = layoutopt::kernels::default_network_schedule(g);
  std::cout << "resnet-18: " << g.nodes().size() << " nodes, " << schedule.nodes.size() << " scheduled\n";

  try {
    (void)layoutopt::graph::onnx::import_onnx_bytes("not a model", "junk");
    std::cout << "onnx: accepted junk\n";
    return 1;
  } catch (const std::exception& e) {
    std::cout << "onnx: refused junk (" << e.what() << ")\n";
  }

  layoutopt::tuning::XGBoostModel model;
  const std::vector<float> rows{0, 1, 2, 3}, labels{0, 1, 2, 3};
  model.fit(rows, 1, labels);
  std::cout << "xgboost: " << model.predict(rows, 1).size() << " predictions\n";
  return 0;
}
