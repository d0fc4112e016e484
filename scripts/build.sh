#!/usr/bin/env bash
# Configures and builds layoutopt (Release, Ninja) into build/. Extra arguments go to CMake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$root/build" -j "$(nproc)"
