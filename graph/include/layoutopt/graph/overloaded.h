#pragma once

namespace layoutopt::graph {

/// Builds a visitor for std::visit from lambdas, one per alternative.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
// Spelled out for clang before 17 (the fuzz build), which lacks C++20's deduction for aggregates.
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace layoutopt::graph
