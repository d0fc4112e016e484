#pragma once
// Shared pieces of the deployment tests: zoo networks compiled ahead of time once per
// process into a scratch folder, schedules with transforms, inputs, and file surgery.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/network/ahead_of_time.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/tunable_op.h"
#include "support/scratch_folder.h"

namespace layoutopt::testing {

/// The thread count both paths run with in these tests.
inline constexpr int kThreads = 2;

/// A zoo network (seed 3), prepared for inference.
inline graph::Graph prepared_zoo(const std::string& name, int64_t image_size) {
  graph::Graph g = graph::zoo::build(name, {.batch = 1, .seed = 3, .image_size = image_size});
  graph::prepare_for_inference(g);
  return g;
}

/// The default schedule with a seeded random algorithm and config per conv / dense (direct
/// or Winograd): their layouts then differ from the flexible nodes' default blocks, so the
/// network has transforms, and Winograd brings multi-stage kernels with scratch.
inline kernels::NetworkSchedule mixed_schedule(const graph::Graph& g, unsigned seed) {
  std::mt19937 rng(seed);
  kernels::NetworkSchedule schedule = kernels::default_network_schedule(g);
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    std::vector<kernels::TunableOp> all;
    if (std::holds_alternative<graph::Conv2d>(g.node(id).op)) all = kernels::TunableOp::conv2d_algorithms(kernels::conv2d_desc(g, id));
    if (std::holds_alternative<graph::Dense>(g.node(id).op)) all.push_back(kernels::TunableOp::dense(kernels::dense_desc(g, id)));
    if (all.empty()) continue;
    const kernels::TunableOp& op = all[rng() % all.size()];
    const int64_t index = static_cast<int64_t>(rng() % static_cast<uint64_t>(op.space().size()));
    const kernels::OpLayouts layouts = op.layouts(index);
    kernels::NodeSchedule& s = schedule.nodes[n];
    s.knobs = op.knobs(index);
    s.inputs = graph::tuned_input_layouts(g, id, layouts.input, layouts.output);
    s.output = layouts.output;
  }
  return schedule;
}

inline std::vector<float> random_values(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0F, 1.0F);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(rng);
  return values;
}

inline std::vector<char> read_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace layoutopt::testing
