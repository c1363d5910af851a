#!/usr/bin/env bash
# parperf installed as users install it, then moved: `cmake --install` into a temporary prefix, the
# tree renamed (so nothing may name the prefix it was installed to, nor the build tree), then
#   - a C, a C++ and a Fortran program built against it with find_package(parperf) (one configure of
#     consumer/CMakeLists.txt) and with pkg-config (cc, c++, gfortran, and mpicc for an MPI program),
#   - each measured by the moved `parperf run` (the MPI one on 2 ranks) and its report checked for
#     the program's own intervals, and an OpenSHMEM program's run (the SHMEM collector),
#   - `parperf cc` and `parperf locality` (memory collector, PNG module) from the moved tree,
#   - the man pages and the bash completion in their places.
# Usage: installed_tree_test.sh BUILD_DIR SOURCE_DIR LIBDIR [SHMEM_PROGRAM]
#   LIBDIR: CMAKE_INSTALL_LIBDIR; SHMEM_PROGRAM: an OpenSHMEM program of the build (when OSHMEM is there)
set -euo pipefail
# shellcheck source=../../support/script_test.sh
source "$(dirname "$0")/../../support/script_test.sh"
script_test_begin "installed parperf"
build=$1 source=$2 libdir=$3 shmem_program=${4:-}
api=$source/tests/scenarios/api_languages

quiet cmake --install "$build" --prefix "$work/installed"
mv "$work/installed" "$work/moved"
prefix=$work/moved
parperf=$prefix/bin/parperf
if stale=$(grep -rlF -e "$build" -e "$work/installed" "$prefix"); then
  fail "these installed files name the build tree or the prefix they were installed to, so a moved or" \
    "packaged tree breaks: $stale"
fi

# The version file: this 0.1 tree answers a request for 0.1 and refuses one for 1.0.
version_file=$prefix/$libdir/cmake/parperf/parperfConfigVersion.cmake
printf 'include("%s")\nmessage("${PACKAGE_VERSION_COMPATIBLE}")\n' "$version_file" >"$work/version_check.cmake"
for request in 0.1:TRUE 1.0:FALSE; do
  wanted=${request%%:*}
  answer=$(cmake -DPACKAGE_FIND_VERSION="$wanted" -DPACKAGE_FIND_VERSION_MAJOR="${wanted%%.*}" \
    -P "$work/version_check.cmake" 2>&1) || true
  [ "$answer" = "${request#*:}" ] ||
    fail "find_package(parperf $wanted) compatible: '$answer', expected ${request#*:} (parperfConfigVersion.cmake)"
done

# find_package(parperf CONFIG), the moved prefix on CMAKE_PREFIX_PATH.
quiet cmake -S "$source/tests/scenarios/installed_tree/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DAPI_SOURCES="$api"
quiet cmake --build "$work/consumer"

# pkg-config, the moved prefix's pkgconfig directory on PKG_CONFIG_PATH.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
[ "$(pkg-config --modversion parperf)" = "$(pkg-config --modversion parperf-fortran)" ] ||
  fail "parperf.pc and parperf-fortran.pc name different versions"
read -ra c_flags <<<"$(pkg-config --cflags --libs parperf)"
read -ra fortran_flags <<<"$(pkg-config --cflags --libs parperf-fortran)"
quiet cc -O1 -o "$work/pkg_c" "$api/api_c.c" "${c_flags[@]}"
quiet c++ -O1 -o "$work/pkg_cpp" "$api/api_cpp.cpp" "${c_flags[@]}"
quiet gfortran -O1 -J "$work" -o "$work/pkg_fortran" "$api/api_fortran.f90" "${fortran_flags[@]}"
mpi=$source/tests/scenarios/mpi_programs
quiet mpicc -O1 -I"$source/tests/scenarios" -I"$mpi" -o "$work/pkg_mpi" "$mpi/pop_phases.c" "${c_flags[@]}"

# measure PROGRAM RUN_OPTIONS... -- ARGS... ; then the report must name each INTERVAL (checked after)
measure() {
  local name=$1
  shift
  quiet "$parperf" run -q -o "$work/run-$name" "$@"
  "$parperf" report "$work/run-$name" >"$work/report-$name.txt" 2>&1 ||
    { cat "$work/report-$name.txt" >&2; fail "parperf report of $name failed"; }
}
expect_intervals() {
  local name=$1
  shift
  for interval in "$@"; do
    grep -qF "$interval" "$work/report-$name.txt" ||
      fail "the report of $name, built against the moved tree and measured by its parperf, has no interval" \
        "$interval:" "$(cat "$work/report-$name.txt")"
  done
}
for program in cmake_c cmake_cpp cmake_fortran; do measure "$program" -- "$work/consumer/$program"; done
for program in pkg_c pkg_cpp pkg_fortran; do measure "$program" -- "$work/$program"; done
for program in cmake_c pkg_c cmake_fortran pkg_fortran; do
  expect_intervals "$program" 'user "compute"' 'parallel loop "rows"'
done
for program in cmake_cpp pkg_cpp; do
  expect_intervals "$program" 'user "compute"' 'sequential loop "steps"' 'parallel loop "rows"'
done
# MPI: the MPI collector found beside the moved runtime, 2 ranks, the program's phases' intervals.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
measure pkg_mpi --np 2 -- "$work/pkg_mpi" 5 1
expect_intervals pkg_mpi 'processes   2' 'user "work"' 'user "stage"' 'MPI_Barrier'
# OpenSHMEM: the SHMEM collector found beside the moved runtime (put_get_ring's SHMEM calls).
if [ -n "$shmem_program" ]; then
  measure shmem --np 2 -- "$shmem_program"
  expect_intervals shmem 'processes   2' 'SHMEM get at put_get_ring.c'
fi

# The compiler wrapper and the memory collector, and the PNG module that `parperf locality` loads.
quiet "$parperf" cc -O1 -fno-vectorize -o "$work/locality_matmul" "$source/tests/scenarios/locality_programs/matmul.c"
quiet "$parperf" locality -q --png -o "$work/locality" -- "$work/locality_matmul"
for picture in locality-scatter.png locality-reuse.png locality-square.png; do
  [ -s "$work/locality/$picture" ] || fail "parperf locality drew no $picture (is libparperf-png.so found in $libdir?)"
done
# The man pages and the completion where man and bash-completion look for them.
MANWIDTH=80 man -M "$prefix/share/man" parperf-run 2>&1 | grep -qF -- '--output' ||
  fail "man -M $prefix/share/man parperf-run shows no page naming --output"
[ -s "$prefix/share/bash-completion/completions/parperf" ] || fail "no bash completion in share/bash-completion/completions"
echo "installed parperf: moved tree builds and measures C, C++, Fortran and MPI programs"
