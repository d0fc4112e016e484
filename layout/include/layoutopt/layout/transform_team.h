#pragma once
// TransformTeam: which OpenMP threads run a LayoutTransform.

namespace layoutopt::layout {

/// Who runs a transform: a team of its own, forked for the call; the calling team, every
/// thread of which calls run() (a network step in the parallel region its kernels share:
/// no fork and join around the transform); or the calling thread alone, while the team's
/// other threads run other steps (a lane of a network's fork).
enum class TransformTeam { own, calling, alone };

}  // namespace layoutopt::layout
