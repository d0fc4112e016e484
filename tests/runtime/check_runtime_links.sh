#!/bin/sh
# Fails listing every shared library of $1 beyond the C and C++ runtimes, libm, OpenMP (GCC's
# libgomp, or LLVM's libomp in the clang-built sanitized configuration), libdl/libpthread and
# the loader: what a program linking only the runtime may need. $2, if given, is one more
# name allowed (an extended regex, e.g. the shared runtime itself); a library ldd cannot
# find fails too.
extra=${2:+|$2}
unexpected=$(ldd "$1" | awk '{print $1}' |
  grep -vE "^(linux-vdso\.so|libc\.so|libstdc\+\+\.so|libm\.so|libgcc_s\.so|libgomp\.so|libomp\.so|libdl\.so|libpthread\.so|/lib64/ld-linux|/lib/ld-linux|ld-linux$extra)")
if [ -n "$unexpected" ]; then
  echo "runtime program links: $unexpected"
  exit 1
fi
if ldd "$1" | grep -q "not found"; then
  ldd "$1"
  echo "runtime program: a library is not found"
  exit 1
fi
ldd "$1"
