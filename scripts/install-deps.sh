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
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module (python/) and its tests
  clang-14 libclang-rt-14-dev libomp-14-dev  # scripts/sanitized-build.sh: libFuzzer is clang's (GCC has none)
  openmpi-bin libopenmpi-dev  # `mpirun -n N layoutopt tune` (mpi/) and its ctest
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

# ONNX Runtime for the peers: onnxruntime-node from npm, pinned in bench/peers/package.json.
# --ignore-scripts: the CPU library ships inside the package; its install script only
# downloads GPU binaries, which this machine can neither fetch nor use.
if [[ "${1:-}" == "--peers" ]]; then
  peers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../bench/peers" && pwd)"
  if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    echo "install-deps: node and npm are needed for the ONNX Runtime peer (they come with the machine image)" >&2
    exit 1
  fi
  wanted_ort="$(node -p "require('$peers_dir/package.json').dependencies['onnxruntime-node']")"
  have_ort="$(node -p "require('$peers_dir/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || true)"
  if [[ "$have_ort" == "$wanted_ort" ]]; then
    echo "install-deps: onnxruntime-node $have_ort present"
  else
    echo "install-deps: installing onnxruntime-node $wanted_ort into bench/peers/node_modules"
    (cd "$peers_dir" && npm install --ignore-scripts --no-audit --no-fund)
  fi
fi
