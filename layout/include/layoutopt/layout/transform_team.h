#pragma once
// TransformTeam: which OpenMP threads run a LayoutTransform.

namespace layoutopt::layout {

/// Who runs a transform: a team of its own, forked for the call, or the calling team, every
/// thread of which calls run() (a network step in the parallel region its kernels share:
/// no fork and join around the transform).
enum class TransformTeam { own, calling };

}  // namespace layoutopt::layout
