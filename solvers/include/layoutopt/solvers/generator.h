#pragma once
// Random instances that look like real layout-selection problems, for tests and benchmarks.
//
// Wiring follows common CNN families; costs follow the kernel/layout model: every candidate
// has an input-layout class and an output-layout class, an edge costs 0 when the source's
// output class equals the target's input class and a transform cost otherwise. Nodes come
// from a small pool of layer shapes, so node costs and edge matrices repeat (and are shared).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers {

enum class Structure {
  chain,          ///< plain sequence (VGG)
  residual,       ///< blocks with skip connections (ResNet)
  inception,      ///< fan-out into parallel branches, then concat (GoogLeNet)
  dense,          ///< dense blocks: every layer feeds every later layer of its block (DenseNet)
  grid,           ///< 2-D grid: high treewidth, a stress test
  random_wiring,  ///< random DAG with local wiring (NASNet / randomly wired networks)
};

struct GeneratorOptions {
  Structure structure = Structure::chain;
  int nodes = 100;
  int candidates = 8;
  uint64_t seed = 1;
  double forbidden_probability = 0.0;  ///< chance that a nonzero edge entry is forbidden
};

/// Throws SolverError on nonsensical options (no nodes, no candidates, p outside [0,1]).
[[nodiscard]] Problem generate_instance(const GeneratorOptions& options);

[[nodiscard]] std::string_view structure_name(Structure structure);
/// Throws SolverError listing the valid names.
[[nodiscard]] Structure parse_structure(std::string_view name);
[[nodiscard]] std::vector<Structure> all_structures();

}  // namespace layoutopt::solvers
