#!/bin/sh
# Fails listing every shared library of $1 beyond the C and C++ runtimes, libm, OpenMP,
# libdl/libpthread and the loader: what a program linking only the runtime may need.
unexpected=$(ldd "$1" | awk '{print $1}' |
  grep -vE '^(linux-vdso\.so|libc\.so|libstdc\+\+\.so|libm\.so|libgcc_s\.so|libgomp\.so|libdl\.so|libpthread\.so|/lib64/ld-linux|/lib/ld-linux|ld-linux)')
if [ -n "$unexpected" ]; then
  echo "runtime program links: $unexpected"
  exit 1
fi
ldd "$1"
