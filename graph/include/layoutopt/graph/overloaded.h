#pragma once

namespace layoutopt::graph {

/// Builds a visitor for std::visit from lambdas, one per alternative.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

}  // namespace layoutopt::graph
