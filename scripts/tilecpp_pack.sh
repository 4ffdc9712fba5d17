#!/usr/bin/env bash
# Builds the tilecpp part of a GPU pack, on a machine with network and no GPU: TileGym's CUDA Tile C++
# kernels (backend "tilecpp") compiled ahead of time for the benchmark configurations, so that
# scripts/gpu_bench.sh can run them on a GPU machine that has no nvcc.
#   usage: scripts/tilecpp_pack.sh PACK_DIR [tilecpp_pack.py arguments: --op OP ... | --quick | --tiny]
#          scripts/tilecpp_pack.sh --install     (the compiler only; prints the path of nvcc)
# 1. Installs CUDA Tile C++ from PyPI into $TILECPP_TOOLCHAIN (default <repo>/.toolchain/tilecpp): nvcc
#    (with ptxas), crt and runtime (the headers, cuda_tile.h among them), nvvm (cicc, libNVVM) and tileiras,
#    all $TILECPP_NVCC_VERSION (13.4.92: the tileiras the other front ends get).
# 2. Runs bench/ops/tilecpp_pack.py in the python tier's environment (scripts/python_env.sh): TileGym's
#    tilecpp wrappers on meta tensors for every configuration, every compile they start done by that nvcc
#    for sm_90 and stored in PACK_DIR/tilecpp (bench/ops/tilecpp_nvcc.py's layout). Adding to an existing
#    pack compiles only what it lacks.
# 3. Writes PACK_DIR/tilecpp.tar.xz (what travels) and PACK_DIR/wheels/ gets cuda-core and cuda-pathfinder
#    for CPython 3.12 (TileGym's tilecpp launcher imports cuda.core; gpu_bench.sh installs them only where
#    the GPU machine lacks it).
set -euo pipefail
TILECPP_NVCC_VERSION=${TILECPP_NVCC_VERSION:-13.4.92}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${TILECPP_TOOLCHAIN:-$repo/.toolchain/tilecpp}
site=$prefix/python
nvcc=$site/nvidia/cu13/bin/nvcc
stamp=$prefix/installed-version

install() {
  if [[ -f $stamp && $(<"$stamp") == "$TILECPP_NVCC_VERSION" && -x $nvcc ]]; then
    return
  fi
  echo "installing CUDA Tile C++ (nvcc $TILECPP_NVCC_VERSION) into $site" >&2
  rm -rf "$site" "$stamp"
  mkdir -p "$prefix"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$site" \
    "nvidia-cuda-nvcc==$TILECPP_NVCC_VERSION" "nvidia-cuda-crt==$TILECPP_NVCC_VERSION" \
    "nvidia-cuda-runtime==$TILECPP_NVCC_VERSION" "nvidia-nvvm==$TILECPP_NVCC_VERSION" \
    "nvidia-cuda-tileiras==$TILECPP_NVCC_VERSION" >&2
  chmod +x "$site"/nvidia/cu13/bin/* "$site"/nvidia/cu13/nvvm/bin/*  # wheels do not keep the executable bit
  "$nvcc" --version | grep -q "V$TILECPP_NVCC_VERSION" ||
    { echo "error: $nvcc does not report version $TILECPP_NVCC_VERSION" >&2; exit 1; }
  echo "$TILECPP_NVCC_VERSION" >"$stamp"
}

if [[ ${1:-} == --install ]]; then
  install
  echo "$nvcc"
  exit 0
fi
[[ $# -ge 1 ]] || { sed -n 2,16p "$0" >&2; exit 2; }
pack=$1
shift
install
mkdir -p "$pack"
pack=$(cd "$pack" && pwd)
python=$("$repo/scripts/python_env.sh")
SECONDS=0
PYTHONPATH=$repo/python "$python" "$repo/bench/ops/tilecpp_pack.py" --pack "$pack/tilecpp" --nvcc "$nvcc" "$@" |
  tee "$pack/tilecpp-build.jsonl"
status=${PIPESTATUS[0]}
echo "compiled in $SECONDS s" >&2
tar -C "$pack" -cf - tilecpp | xz -T1 -9e >"$pack/tilecpp.tar.xz"
mkdir -p "$pack/wheels"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.12 \
  --dest "$pack/wheels" cuda-core cuda-pathfinder
entries=$(find "$pack/tilecpp/entries" -name '*.json' | wc -l)
cubins=$(find "$pack/tilecpp/entries" -name '*.cubin' | wc -l)
echo "$pack/tilecpp: $entries compiles ($cubins cubins, $(du -sh "$pack/tilecpp" | cut -f1));" \
  "tilecpp.tar.xz $(du -h "$pack/tilecpp.tar.xz" | cut -f1)" >&2
exit "$status"
