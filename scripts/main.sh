#!/usr/bin/env bash
# The main-job command: installs what is missing, builds (Release) and runs layoutopt on a
# built-in network: what the network contains, then its whole-network layout assignment
# solved by every solver (costs from the analytic model until measured costs exist).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
layoutopt="$root/build/apps/layoutopt"
"$layoutopt" info resnet-50
"$layoutopt" compare resnet-50 inception-v3 densenet-201 --force -o "$root/out/compare"
