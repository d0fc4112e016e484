#!/usr/bin/env bash
# Installs every Debian package layoutopt needs to build, test and benchmark.
# Idempotent: packages already present are skipped, so re-running costs one dpkg query.
# Usage: scripts/install-deps.sh [--peers]   (--peers adds the benchmark peers: oneDNN's
# Python side via PyTorch and ONNX Runtime from npm; the C++ build never needs them.)
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libeigen3-dev
  llvm-16-dev libzstd-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev
  nlohmann-json3-dev libbenchmark-dev doctest-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libxgboost-dev libdnnl-dev
  libcli11-dev graphviz toulbar2 python3
)
# Node.js and npm come with the machine image (nodesource build); we only need the
# Debian Python stack for the PyTorch peer and ONNX export.
peer_packages=(python3-torch python3-torchvision python3-onnx)

wanted=("${build_packages[@]}")
if [[ "${1:-}" == "--peers" ]]; then wanted+=("${peer_packages[@]}"); fi

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#wanted[@]} packages present"
fi
