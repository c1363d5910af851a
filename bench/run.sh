#!/usr/bin/env bash
# Runs the hot-path benchmark of an existing Release build (scripts/demo.sh or scripts/test.sh
# make one in build/). Usage: bench/run.sh [google-benchmark options]
# OPENMP=1 also runs bench/openmp/overhead.sh (the OpenMP collector's overhead, about a minute)
# afterwards; bench/overhead_ratio.sh times a whole annotated program.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=build/bin/parperf-bench
[ -x "$bench" ] || { echo "bench/run.sh: $bench is missing; build first (scripts/demo.sh)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
PARPERF_DIR="$scratch" PARPERF_QUIET=1 "$bench" --benchmark_repetitions="${REPS:-3}" \
  --benchmark_report_aggregates_only=true "$@"
if [ "${OPENMP:-0}" = 1 ]; then
  echo
  bench/openmp/overhead.sh build
fi
