#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs the whole suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure --timeout 600 -j "$(nproc)"
