#pragma once
// The options a MODEL takes (batch, seed) and the rule for a model that does not take them:
// a file that fixes its batch refuses another one, and an option without effect says so. One
// rule for the CLI (--batch, --seed) and the Python module (batch=, seed=), which only name
// the options differently.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layoutopt::pipeline {

/// How the front end spells the options, for its messages.
struct OptionNames {
  std::string batch = "--batch";
  std::string seed = "--seed";
};

/// Unset means "not given": the model's own batch (1 where it has none) and seed 0.
struct ModelOptions {
  std::optional<int64_t> batch;
  std::optional<uint64_t> seed;
  OptionNames names;
};

/// What a loaded model leaves to the options.
struct ModelFreedom {
  std::string description;           ///< "'tiny.onnx'", for messages
  std::optional<int64_t> fixed_batch;  ///< the batch the file fixes; unset when the batch is the option's
  bool seed_used = true;               ///< whether generated weights took the seed
  std::string seed_unused_reason;      ///< why not, when they did not ("its weights are in the file")
};

/// Applies the rule: throws graph::GraphError when a given batch differs from the model's fixed
/// one; returns one warning for each given option that has no effect on the model.
[[nodiscard]] std::vector<std::string> check_model_options(const ModelOptions& options, const ModelFreedom& model);

}  // namespace layoutopt::pipeline
