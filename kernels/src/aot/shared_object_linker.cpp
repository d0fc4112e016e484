#include "aot/shared_object_linker.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "layoutopt/kernels/error.h"

extern char** environ;

namespace layoutopt::kernels::aot {

void link_shared_object(const std::string& driver, const std::vector<std::filesystem::path>& objects,
                        const std::filesystem::path& output) {
  // LLVM's objects carry no .note.GNU-stack; the kernels never need an executable stack.
  std::vector<std::string> args{driver, "-shared", "-Wl,-z,noexecstack", "-o", output.string()};
  for (const std::filesystem::path& object : objects) args.push_back(object.string());
  args.push_back("-lm");  // in case the code generator calls a libm function
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, driver.c_str(), nullptr, nullptr, argv.data(), environ);
  if (error != 0) throw KernelError("cannot run the linker '" + driver + "': " + std::strerror(error));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw KernelError("waiting for the linker '" + driver + "': " + std::strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw KernelError("linking " + output.string() + " with '" + driver + " -shared' failed (exit status " +
                      std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

}  // namespace layoutopt::kernels::aot
