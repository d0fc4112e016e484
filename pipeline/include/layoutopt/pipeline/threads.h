#pragma once
// The thread count every command measures, plans and runs with. Records and transform
// tables are keyed by it, so every command resolves an unset --threads the same way.

namespace layoutopt::pipeline {

/// `requested` when positive, else OpenMP's default (timing::CpuInfo::default_threads).
[[nodiscard]] int resolve_threads(int requested);

}  // namespace layoutopt::pipeline
