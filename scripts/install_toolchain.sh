#!/usr/bin/env bash
# Installs NVIDIA's Tile IR compiler (tileiras) with the ptxas and libNVVM of the same release, from
# PyPI, into PREFIX/python. Prints the path of tileiras. Running it again with the same release does
# nothing; another release replaces what PREFIX held.
#   usage: [CUTILE_TILEIRAS_RELEASE=13.5.37] scripts/install_toolchain.sh [PREFIX]
# The release defaults to 13.4.92, the one this tree is tested with. PREFIX defaults to <repo>/.toolchain
# (where cutile looks first) for that release and to <repo>/.toolchain-<release> for any other, which
# cutile uses when pointed at it: CUTILE_TOOLCHAIN_DIR=<repo>/.toolchain-13.5.37. Name .toolchain as
# PREFIX to make another release the one cutile finds by itself.
set -euo pipefail

# tileiras needs ptxas and libNVVM of its own major.minor; all three move together.
DEFAULT_RELEASE=13.4.92
TILEIRAS_VERSION=${CUTILE_TILEIRAS_RELEASE:-$DEFAULT_RELEASE}
[[ $TILEIRAS_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  { echo "error: CUTILE_TILEIRAS_RELEASE='$TILEIRAS_VERSION' is not a release such as 13.5.37" >&2; exit 1; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $TILEIRAS_VERSION == "$DEFAULT_RELEASE" ]]; then
  prefix=${1:-$repo/.toolchain}
else
  prefix=${1:-$repo/.toolchain-$TILEIRAS_VERSION}
fi
site=$prefix/python
bin=$site/nvidia/cu13/bin
stamp=$prefix/installed-version

if [[ -f $stamp && $(<"$stamp") == "$TILEIRAS_VERSION" && -x $bin/tileiras ]]; then
  echo "$bin/tileiras"
  exit 0
fi

echo "installing tileiras $TILEIRAS_VERSION into $site" >&2
rm -rf "$site" "$stamp"
mkdir -p "$prefix"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$site" \
  "nvidia-cuda-tileiras==$TILEIRAS_VERSION" "nvidia-cuda-nvcc==$TILEIRAS_VERSION" "nvidia-nvvm==$TILEIRAS_VERSION" >&2

# Wheels do not keep the executable bit.
chmod +x "$bin"/*
for file in tileiras ptxas; do
  [[ -x $bin/$file ]] || { echo "error: $bin/$file is missing after the install" >&2; exit 1; }
done
[[ -f $site/nvidia/cu13/lib/libnvvm.so.4 ]] || { echo "error: libnvvm.so.4 is missing after the install" >&2; exit 1; }
# tileiras finds libNVVM only through CUDA_HOME.
CUDA_HOME=$site/nvidia/cu13 "$bin/tileiras" --version | grep -q "V$TILEIRAS_VERSION" ||
  { echo "error: $bin/tileiras does not report version $TILEIRAS_VERSION" >&2; exit 1; }

echo "$TILEIRAS_VERSION" > "$stamp"
echo "$bin/tileiras"
