#!/usr/bin/env bash
# The slowdown of a program instrumented for `parperf locality`, as ratios to the same program built
# without instrumentation (clang-16 -O2 -mno-avx, scalar):
#   capture to file    the collector writing the stream to a .ppm file
#   online exact       `parperf locality`: exact reuse distances, scored while the program runs
#   online sampled     the same with SHARDS sampling at --sample-rate (default 0.01)
# Usage: bench/locality/overhead.sh [BUILD_DIR] [REPEATS] [SAMPLE_RATE]   (median of 3 runs each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
repeats=${2:-20}
rate=${3:-0.01}
source "$here/../overhead_common.sh"
parperf="$build/bin/parperf"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clang-16 -O2 -mno-avx -fno-vectorize -fno-slp-vectorize "$here/scalar_loop.c" -o "$work/plain"
"$parperf" cc -O2 -fno-vectorize -fno-slp-vectorize "$here/scalar_loop.c" -o "$work/instrumented"

seconds() {  # wall seconds of one run of the command given
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}
measure() {
  local runs=()
  for _ in 1 2 3; do runs+=("$(seconds "$@")"); done
  median "${runs[@]}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

echo "CPU busy before the runs: $(busy_percent)%"
accesses=$((repeats * 3 * (1 << 20)))
plain=$(measure "$work/plain" "$repeats")
file=$(PARPERF_QUIET=1 PARPERF_MEM_TRACE="$work/trace.ppm" measure "$work/instrumented" "$repeats")
exact=$(measure "$parperf" locality -q -o "$work/exact" -- "$work/instrumented" "$repeats")
sampled=$(measure "$parperf" locality -q --sample-rate "$rate" -o "$work/sampled" -- "$work/instrumented" "$repeats")
printf 'accesses per run: %d (%.1f ns per access uninstrumented)\n' "$accesses" "$(awk -v t="$plain" -v n="$accesses" 'BEGIN { print t * 1e9 / n }')"
printf '%-34s %8.3f s\n' "uninstrumented" "$plain"
printf '%-34s %8.3f s  %6.2fx\n' "capture to file" "$file" "$(ratio "$file" "$plain")"
printf '%-34s %8.3f s  %6.2fx\n' "online, exact" "$exact" "$(ratio "$exact" "$plain")"
printf '%-34s %8.3f s  %6.2fx\n' "online, sampled at $rate" "$sampled" "$(ratio "$sampled" "$plain")"
