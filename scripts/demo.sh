#!/usr/bin/env bash
# Shows parperf at work on a fresh Debian 12 machine: installs what is missing, builds Release into
# build/ everything a user needs (the target parperf_user: the `parperf` command with its compiler
# wrappers `parperf cc` / `parperf c++`, libparperf.so, the MPI and memory collectors
# libparperf-mpi.so and libparperf-mem.so, the PNG module libparperf-png.so and the example; not
# the tests), runs the bundled example (a two-thread heat stencil) under `parperf run` and prints
# its report. Usage: scripts/demo.sh [BUILD_DIR=build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --target parperf_user

rm -rf "$build/demo-run"
"$build/bin/parperf" run -o "$build/demo-run" -- "$build/bin/parperf-example"
"$build/bin/parperf" report "$build/demo-run"
echo
echo "Every interval's characteristics in full: $build/bin/parperf report --details $build/demo-run"
echo
echo "Built in $build: bin/parperf (run, report, trace, export, locality, cc, c++), bin/parperf-report-mpi"
echo "(parallel trace analysis: parperf report --np K), bin/parperf-example,"
echo "lib/libparperf.so (runtime), lib/libparperf-mpi.so (MPI), lib/libparperf-mem.so (memory accesses),"
if [ -e "$build/lib/libparperf-shmem.so" ]; then echo "lib/libparperf-shmem.so (OpenSHMEM),"; fi
echo "lib/libparperf-gasp.so (the GASP tool for UPC compilers), lib/libparperf-png.so (the PNG pictures of parperf locality)."
