// Builds a zoo network, prepares it and gives it the kernels' default schedule: code from the
// graph, zoo and kernels libraries, linked from the installed package with everything they need.
#include <iostream>

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/network/default_schedule.h"

int main() {
  layoutopt::graph::Graph g = layoutopt::graph::zoo::build("resnet-18", {.batch = 1, .seed = 3, .image_size = 224});
  layoutopt::graph::prepare_for_inference(g);
  const layoutopt::kernels::NetworkSchedule schedule = layoutopt::kernels::default_network_schedule(g);
  std::cout << "resnet-18: " << g.nodes().size() << " nodes, " << schedule.nodes.size() << " scheduled\n";
  return 0;
}
