#include "layoutopt/layout/transform_path.h"

namespace layoutopt::layout {

std::string_view to_string(TransformPath path) {
  switch (path) {
    case TransformPath::identity: return "identity";
    case TransformPath::copy_runs: return "copy_runs";
    case TransformPath::transpose: return "transpose";
    case TransformPath::gather: return "gather";
  }
  return "unknown";
}

}  // namespace layoutopt::layout
