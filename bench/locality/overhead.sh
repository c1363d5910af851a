#!/usr/bin/env bash
# The slowdown of a program instrumented for `parperf locality`, as ratios to the same program built
# without instrumentation (clang-16 -O2 -mno-avx, scalar):
#   capture to file    the collector writing the stream to a .ppm file
#   online exact       `parperf locality`: exact reuse distances, scored while the program runs
#   online sampled     the same with SHARDS sampling at --sample-rate (default 0.01)
#   empty hooks        the instrumented program with hooks that do nothing (empty_hooks.c,
#                      preloaded): the cost of the instrumentation itself, under any collector
# Each run also has a fixed cost, whatever the program's length: starting the analysis, reading
# the symbols, writing the results. It is measured with zero repeats of the loop and printed
# apart, with the ratio of the loop alone (run minus the zero-repeat run of the same mode).
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
clang-16 -O2 -shared -fPIC "$here/empty_hooks.c" -o "$work/libempty_hooks.so"

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
# run MODE REPEATS: one configuration's median wall time
run() {
  case $1 in
    plain) measure "$work/plain" "$2" ;;
    empty) LD_PRELOAD="$work/libempty_hooks.so" measure "$work/instrumented" "$2" ;;
    file) PARPERF_QUIET=1 PARPERF_MEM_TRACE="$work/trace.ppm" measure "$work/instrumented" "$2" ;;
    exact) measure "$parperf" locality -q -o "$work/exact" -- "$work/instrumented" "$2" ;;
    sampled) measure "$parperf" locality -q --sample-rate "$rate" -o "$work/sampled" -- "$work/instrumented" "$2" ;;
  esac
}
declare -A full fixed
for mode in plain empty file exact sampled; do
  full[$mode]=$(run "$mode" "$repeats")
  fixed[$mode]=$(run "$mode" 0)
done
loop() { awk -v a="${full[$1]}" -v b="${fixed[$1]}" 'BEGIN { print a - b }'; }
printf 'accesses per run: %d (%.2f ns per access uninstrumented)\n' "$accesses" \
  "$(awk -v t="$(loop plain)" -v n="$accesses" 'BEGIN { print t * 1e9 / n }')"
printf '%-28s %9s %8s %11s %9s %13s\n' "" "run" "ratio" "fixed cost" "loop" "loop ratio"
for mode in plain empty file exact sampled; do
  case $mode in
    plain) label="uninstrumented" ;;
    empty) label="empty hooks (the floor)" ;;
    file) label="capture to file" ;;
    exact) label="online, exact" ;;
    sampled) label="online, sampled at $rate" ;;
  esac
  printf '%-28s %8.3fs %7.2fx %10.3fs %8.3fs %12.2fx\n' "$label" "${full[$mode]}" \
    "$(ratio "${full[$mode]}" "${full[plain]}")" "${fixed[$mode]}" "$(loop "$mode")" \
    "$(ratio "$(loop "$mode")" "$(loop plain)")"
done
