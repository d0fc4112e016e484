#pragma once
// TransformPath: which strategy a LayoutTransform runs (transform.h explains each), for cost
// models and reports that price the paths differently.

#include <string_view>

namespace layoutopt::layout {

enum class TransformPath { identity, copy_runs, transpose, gather };
std::string_view to_string(TransformPath path);

}  // namespace layoutopt::layout
