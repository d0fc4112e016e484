#pragma once
// Linking object files into a shared object with the system's C compiler driver.

#include <filesystem>
#include <string>
#include <vector>

namespace layoutopt::kernels::aot {

/// Runs `driver -shared -o output objects...` (no shell); throws KernelError when it cannot
/// start or exits unsuccessfully.
void link_shared_object(const std::string& driver, const std::vector<std::filesystem::path>& objects,
                        const std::filesystem::path& output);

}  // namespace layoutopt::kernels::aot
