#!/usr/bin/env bash
# Shows parperf at work on a fresh Debian 12 machine: installs what is missing, builds Release into
# build/, runs the bundled example (a two-thread heat stencil) under `parperf run` and prints its
# report. Usage: scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target parperf_cli parperf parperf_example

rm -rf build/demo-run
build/bin/parperf run -o build/demo-run -- build/bin/parperf-example
build/bin/parperf report build/demo-run
