#!/usr/bin/env bash
# The main-job command: installs what is missing, builds (Release) and runs the main job on a
# built-in network: `layoutopt optimize` tunes ResNet-18's conv/dense tasks for a minute
# (resuming from out/resnet-18/tune.jsonl when run again), times the layout transforms, plans
# the whole network with DP and PBQP, compiles the plans and measures default, history-best
# and graph-tuned latency side by side. The plan is written to out/resnet-18/plan.json,
# replacing the one an earlier run of this script wrote there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
cd "$root"
build/apps/layoutopt optimize resnet-18 --budget quick --force
