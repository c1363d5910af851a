#!/usr/bin/env bash
# The module files (packaging/modulefiles): parperf installed into a temporary prefix and moved, then
# `module load parperf` with Lmod from the Lua file and from the Tcl file of Environment Modules
# (Debian's lmod and environment-modules conflict, so the machine has Lmod, which reads both): each
# must put the moved tree on PATH, MANPATH (keeping the system's man pages), CMAKE_PREFIX_PATH and
# PKG_CONFIG_PATH, and unloading must take it off again.
# Usage: module_files_test.sh BUILD_DIR LIBDIR VERSION
set -euo pipefail
# shellcheck source=../../support/script_test.sh
source "$(dirname "$0")/../../support/script_test.sh"
script_test_begin "module files"
build=$1 libdir=$2 version=$3
lmod_init=/usr/share/lmod/lmod/init/bash
[ -f "$lmod_init" ] || fail "Lmod is not installed ($lmod_init): scripts/install-deps.sh installs lmod"
cmake --install "$build" --prefix "$work/installed" >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "cmake --install failed"; }
mv "$work/installed" "$work/moved"
prefix=$work/moved
export HOME=$work  # Lmod's user cache
unset MANPATH     # as on a fresh login: man's own directories only

# Each module file loaded in a shell of its own, from the moved tree.
for tree in lmod/modulefiles modules/modulefiles; do
  (
    # shellcheck source=/dev/null
    source "$lmod_init"
    module use "$prefix/share/$tree"
    module load parperf 2>"$work/load.log" || { cat "$work/load.log" >&2; fail "module load parperf failed ($tree)"; }
    for expected in "PATH=$prefix/bin" "MANPATH=$prefix/share/man" "CMAKE_PREFIX_PATH=$prefix" \
      "PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig"; do
      name=${expected%%=*}
      [[ ":${!name:-}:" == *":${expected#*=}:"* ]] ||
        fail "after module load parperf ($tree), $name is '${!name:-}', without ${expected#*=}"
    done
    [ "$(command -v parperf)" = "$prefix/bin/parperf" ] || fail "after module load parperf ($tree), parperf is $(command -v parperf)"
    [ "$(pkg-config --modversion parperf)" = "$version" ] || fail "pkg-config finds no parperf $version ($tree)"
    [[ $(man -w parperf-run) == "$prefix/"* ]] || fail "after module load parperf ($tree), man finds no parperf-run page in $prefix"
    man -w man >/dev/null 2>&1 || fail "after module load parperf ($tree), MANPATH='$MANPATH' hides the system's man pages"
    module unload parperf
    [[ ":$PATH:" != *":$prefix/bin:"* ]] || fail "module unload parperf ($tree) leaves $prefix/bin on PATH"
  )
done
echo "module files: the Lua and the Tcl module file set and unset the moved tree's paths"
