#pragma once
// The rule every writer of a user's file follows (the CLI's -o, the Python functions): an
// existing file is never replaced unless the caller said so, and the check runs before any
// work, so a long run never ends in a refusal to save.

#include <filesystem>
#include <string>

namespace layoutopt::pipeline {

/// Throws std::runtime_error when `path` is a folder, or exists without `force`.
/// `force_hint` names how the caller overrides ("--force", "force=True").
void check_replaceable(const std::filesystem::path& path, bool force, const std::string& force_hint);

/// check_replaceable, and also throws when `path` lies in a missing folder.
void check_writable(const std::filesystem::path& path, bool force, const std::string& force_hint);

/// The same rule for an artifact folder (`compile`): throws when `folder` is a file, or holds
/// an artifact's file without `force`. Other files in it are allowed: they are never touched.
void check_artifact_writable(const std::filesystem::path& folder, bool force, const std::string& force_hint);

}  // namespace layoutopt::pipeline
