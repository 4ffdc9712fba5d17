# Pieces the GPU scripts share (sourced by gpu_bench.sh, gpu_python_check.sh and gpu_tune.sh).

# unpack_toolchain PACK WORK: tileiras, ptxas and libNVVM from PACK/tc.tar.xz into WORK/toolchain, which
# CUTILE_TOOLCHAIN_DIR then names; fails when the pack has none.
unpack_toolchain() {
  [[ -f $1/tc.tar.xz ]] && tar -C "$2" -xJf "$1/tc.tar.xz" || return 1
  mkdir -p "$2/toolchain/python" && rm -rf "$2/toolchain/python/nvidia" && mv "$2/nvidia" "$2/toolchain/python/"
  export CUTILE_TOOLCHAIN_DIR=$2/toolchain
}

# tileiras_on_path REPO WORK: cuTile Python looks for `tileiras` on PATH, and that tileiras finds libNVVM
# through CUDA_HOME (lib/libnvvm.so.4, the pip layout): a wrapper in WORK/bin sets CUDA_HOME for tileiras
# alone, so nothing else sees a changed CUDA_HOME.
tileiras_on_path() {
  python3 "$1/bench/ops/cutile_toolchain.py" --wrap "$2/toolchain/python/nvidia/cu13" --into "$2/bin" >/dev/null
  export PATH=$2/bin:$PATH
}

# configure_build REPO BUILD LOG CMAKE_ARGS...: configures BUILD, a new one with Ninja; one that another
# GPU script of the same call configured keeps its generator.
configure_build() {
  local repo=$1 build=$2 log=$3
  shift 3
  local generator=(-G Ninja)
  [[ -f $build/CMakeCache.txt ]] && generator=()
  cmake -S "$repo" -B "$build" "${generator[@]}" "$@" >"$log" 2>&1
}
