#!/usr/bin/env bash
# The Python environment of the python test tier, on a machine without a GPU: a venv with PyTorch 2.11.0
# (the GPU machine's version; the PyPI wheel, installed without its CUDA dependency wheels, which the
# CUDA libraries of /usr/local/cuda/lib64 and three small wheels stand in for), pytest, matplotlib (the
# performance dashboard's PNGs), tilegym 1.5.1 and cuda-tile 1.7.0 (TileGym's dispatcher and its cutile
# backend). Installing again with the same versions does nothing. Prints the path of `cutile-python`, the
# venv's python with the library path torch needs.
#   location: $CUTILE_PYENV, default <repo>/.cache/pyenv
set -euo pipefail

TORCH_VERSION=2.11.0
TILEGYM_VERSION=1.5.1
CUDA_TILE_VERSION=1.7.0
CUDA_LIB=/usr/local/cuda/lib64

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
env_dir=${CUTILE_PYENV:-$repo/.cache/pyenv}
stamp=$env_dir/installed-versions
want="torch==$TORCH_VERSION tilegym==$TILEGYM_VERSION cuda-tile==$CUDA_TILE_VERSION pytest matplotlib $(python3 -c 'import sys; print(sys.implementation.cache_tag)')"

if [[ ! -f $stamp || $(<"$stamp") != "$want" ]]; then
  [[ -f $CUDA_LIB/libcublas.so.13 ]] ||
    { echo "error: $CUDA_LIB/libcublas.so.13 is missing: the torch wheel needs the CUDA 13 libraries" >&2; exit 1; }
  echo "creating the python tier's environment in $env_dir (torch $TORCH_VERSION, ~530 MB download)" >&2
  rm -rf "$env_dir"
  python3 -m venv "$env_dir"
  # The installs below leave torch's CUDA wheels out on purpose, and pip would report each step's view of
  # that as a dependency conflict; --no-warn-conflicts drops those reports (a failed install still fails).
  pip=("$env_dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-warn-conflicts)
  "${pip[@]}" --no-deps "torch==$TORCH_VERSION" >&2
  "${pip[@]}" typing_extensions sympy filelock jinja2 networkx fsspec numpy pytest matplotlib >&2
  "${pip[@]}" --no-deps "nvidia-cufile==1.15.*" nvidia-cusparselt-cu13 "nvidia-nvshmem-cu13==3.4.5" >&2
  # TileGym's dispatcher and its cutile ops: cuda-tile with its one dependency, tilegym without its own
  # (transformers, cuda-bindings, ...), which importing tilegym.ops does not need.
  "${pip[@]}" "cuda-tile==$CUDA_TILE_VERSION" >&2
  "${pip[@]}" --no-deps "tilegym==$TILEGYM_VERSION" >&2
  site=$("$env_dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  cat > "$env_dir/bin/cutile-python" <<WRAPPER
#!/usr/bin/env bash
export LD_LIBRARY_PATH=$CUDA_LIB:$site/nvidia/cu13/lib:$site/nvidia/nvshmem/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
exec "$env_dir/bin/python" "\$@"
WRAPPER
  chmod +x "$env_dir/bin/cutile-python"
  "$env_dir/bin/cutile-python" -c 'import torch, tilegym.ops, pytest, matplotlib' 2> /dev/null ||
    { echo "error: torch, tilegym.ops, pytest or matplotlib does not import in $env_dir" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
echo "$env_dir/bin/cutile-python"
