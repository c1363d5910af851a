#!/usr/bin/env bash
# Installs the Debian 12 packages parperf builds and tests with, only those that are missing.
# Usage: scripts/install-deps.sh
set -euo pipefail

packages=(
  cmake ninja-build g++ gfortran pkg-config
  clang-16 libomp-16-dev libclang-rt-16-dev llvm-16-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev libzstd-dev libdw-dev
  librsvg2-dev libcairo2-dev libpng-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format valgrind
  man-db dpkg-dev lmod python3-pandas
  libopenmpi-dev openmpi-bin
  libopen-trace-format2-dev otf2-tools protobuf-compiler
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "parperf: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
