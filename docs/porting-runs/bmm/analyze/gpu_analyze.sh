#!/usr/bin/env bash
# The analyze stage's one GPU call for bmm: the toolchain set-up of scripts/gpu_bench.sh (the carried
# wheels, tileiras from tc.tar.xz behind its CUDA_HOME wrapper, cuTile Python's disk cache), then
# bmm_autotune.py. usage: gpu_analyze.sh PACK_DIR OUT_DIR [BUDGET_S]
set -uo pipefail
SECONDS=0
pack=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
budget=${3:-400}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
work=/tmp/cutile-analyze
rm -rf "$work" && mkdir -p "$work"
step() { echo "[$SECONDS s] $*"; }

step "gpu"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
site=$work/site
export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
wanted=(tilegym cuda-tile)
python3 -m pip install --quiet --no-index --find-links "$pack/wheels" --target "$site" --no-deps "${wanted[@]}" \
  >"$out/pip.log" 2>&1 || step "pip install failed (see pip.log)"
step "unpacking the toolchain"
tar -C "$work" -xJf "$pack/tc.tar.xz"
mkdir -p "$work/toolchain/python" && mv "$work/nvidia" "$work/toolchain/python/"
export CUTILE_TOOLCHAIN_DIR=$work/toolchain
python3 "$repo/bench/ops/cutile_toolchain.py" --wrap "$work/toolchain/python/nvidia/cu13" --into "$work/bin" >/dev/null
export PATH=$work/bin:$PATH
export CUDA_TILE_CACHE_DIR=$work/cutile-python-cache TRITON_CACHE_DIR=$work/triton-cache
python3 "$repo/bench/ops/cutile_toolchain.py" >"$out/cutile_toolchain.json" 2>&1
step "cuTile Python toolchain: $(tr -d '\n' <"$out/cutile_toolchain.json" | head -c 300)"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tee -a "$out/gpu.txt"

step "bmm_autotune.py (budget $budget s)"
DISABLE_FALLBACK=1 timeout -k 10 $((budget + 120)) python3 "$here/bmm_autotune.py" --out "$out/autotune.json" \
  --budget-s "$budget" >"$out/autotune.log" 2>&1
step "exit $?"
grep -v '^{' "$out/autotune.log" | tail -n 60
