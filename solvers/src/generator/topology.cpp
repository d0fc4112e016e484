#include "generator/topology.h"

#include <cmath>

namespace layoutopt::solvers::generator {

namespace {

int uniform(std::mt19937_64& random, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); }

// Hands out node ids in order until the budget is spent.
class Allocator {
 public:
  explicit Allocator(int nodes) : nodes_(nodes) {}
  [[nodiscard]] bool left() const { return next_ < nodes_; }
  int take() { return next_++; }

 private:
  int nodes_;
  int next_ = 0;
};

Wiring chain(int nodes) {
  Wiring edges;
  for (int v = 1; v < nodes; ++v) edges.emplace_back(v - 1, v);
  return edges;
}

// ResNet: x -> body (2-3 convs) -> y, plus the skip x -> y.
Wiring residual(int nodes, std::mt19937_64& random) {
  Wiring edges;
  Allocator ids(nodes);
  int x = ids.take();
  while (ids.left()) {
    int last = x;
    const int length = uniform(random, 2, 3);
    for (int k = 0; k < length && ids.left(); ++k) {
      const int body = ids.take();
      edges.emplace_back(last, body);
      last = body;
    }
    if (!ids.left()) break;
    const int y = ids.take();
    edges.emplace_back(last, y);
    edges.emplace_back(x, y);
    x = y;
  }
  return edges;
}

// GoogLeNet: x fans out into 2-4 branches of 1-2 convs, concatenated into y.
Wiring inception(int nodes, std::mt19937_64& random) {
  Wiring edges;
  Allocator ids(nodes);
  int x = ids.take();
  while (ids.left()) {
    std::vector<int> ends;
    const int branches = uniform(random, 2, 4);
    for (int b = 0; b < branches && ids.left(); ++b) {
      int last = x;
      const int length = uniform(random, 1, 2);
      for (int k = 0; k < length && ids.left(); ++k) {
        const int conv = ids.take();
        edges.emplace_back(last, conv);
        last = conv;
      }
      ends.push_back(last);
    }
    if (!ids.left()) break;
    const int y = ids.take();
    for (int end : ends) edges.emplace_back(end, y);
    x = y;
  }
  return edges;
}

// DenseNet: in a block every layer reads the block input and all earlier layers; the
// transition reads all of them and is the next block's input.
Wiring dense(int nodes, std::mt19937_64& random) {
  Wiring edges;
  Allocator ids(nodes);
  int x = ids.take();
  while (ids.left()) {
    std::vector<int> block{x};
    const int layers = uniform(random, 4, 12);
    for (int k = 0; k <= layers && ids.left(); ++k) {  // the last one is the transition
      const int layer = ids.take();
      for (int earlier : block) edges.emplace_back(earlier, layer);
      block.push_back(layer);
    }
    x = block.back();
  }
  return edges;
}

Wiring grid(int nodes) {
  Wiring edges;
  const int width = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(nodes))));
  for (int v = 0; v < nodes; ++v) {
    if ((v + 1) % width != 0 && v + 1 < nodes) edges.emplace_back(v, v + 1);
    if (v + width < nodes) edges.emplace_back(v, v + width);
  }
  return edges;
}

// NASNet-like: each node reads its predecessor and sometimes one or two nodes from a short
// window before it.
Wiring random_wiring(int nodes, std::mt19937_64& random) {
  constexpr int kWindow = 6;
  Wiring edges;
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (int v = 1; v < nodes; ++v) {
    edges.emplace_back(v - 1, v);
    if (v < 2) continue;
    const int extra = coin(random) < 0.5 ? (coin(random) < 0.4 ? 2 : 1) : 0;
    for (int k = 0; k < extra; ++k) edges.emplace_back(uniform(random, std::max(0, v - kWindow), v - 2), v);
  }
  return edges;
}

}  // namespace

Wiring wire(Structure structure, int nodes, std::mt19937_64& random) {
  switch (structure) {
    case Structure::chain: return chain(nodes);
    case Structure::residual: return residual(nodes, random);
    case Structure::inception: return inception(nodes, random);
    case Structure::dense: return dense(nodes, random);
    case Structure::grid: return grid(nodes);
    case Structure::random_wiring: return random_wiring(nodes, random);
  }
  return {};
}

}  // namespace layoutopt::solvers::generator
