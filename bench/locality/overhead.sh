#!/usr/bin/env bash
# The slowdown of a program instrumented for `parperf locality`, as ratios to the same program built
# without instrumentation (clang-16 -O2 -mno-avx, scalar):
#   capture to file    the collector writing the stream to a .ppm file
#   online exact       `parperf locality`: exact reuse distances, scored while the program runs
#   online sampled     the same with SHARDS sampling at --sample-rate (default 0.01)
#   empty hooks        the instrumented program with hooks that do nothing (empty_hooks.c,
#                      preloaded): the cost of the instrumentation itself, under any collector
#   inline countdown   the program built with `parperf cc --sampled` (an inline countdown per access,
#                      bursts recorded), its trace thrown away (/dev/null): the sampled mode's floor
#   online bursts      `parperf locality` on that build: the sampled mode as a user runs it
# Each run also has a fixed cost, whatever the program's length: starting the analysis, reading
# the symbols, writing the results. It is measured with zero repeats of the loop and printed
# apart, with the ratio of the loop alone (run minus the zero-repeat run of the same mode).
# The configurations are run in interleaved rounds (one run of each per round), so that a change of
# the machine's load touches them alike; each figure is the median over the rounds.
# Usage: bench/locality/overhead.sh [BUILD_DIR] [REPEATS] [SAMPLE_RATE]
#   MODES="plain empty file exact sampled countdown bursts" (default: all) ROUNDS=3 (default)
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
"$parperf" cc --sampled -O2 -fno-vectorize -fno-slp-vectorize "$here/scalar_loop.c" -o "$work/sampled_build"
clang-16 -O2 -shared -fPIC "$here/empty_hooks.c" -o "$work/libempty_hooks.so"

seconds() {  # wall seconds of one run of the command given
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

modes=(${MODES:-plain empty file exact sampled countdown bursts})
[ "${modes[0]}" = plain ] || { echo "MODES must begin with plain (the reference)" >&2; exit 2; }
rounds=${ROUNDS:-3}
echo "CPU busy before the runs: $(busy_percent)%"
accesses=$((repeats * 3 * (1 << 20)))
# run MODE REPEATS: one configuration's wall time, once
run() {
  case $1 in
    plain) seconds "$work/plain" "$2" ;;
    empty) LD_PRELOAD="$work/libempty_hooks.so" seconds "$work/instrumented" "$2" ;;
    file) PARPERF_QUIET=1 PARPERF_MEM_TRACE="$work/trace.ppm" seconds "$work/instrumented" "$2" ;;
    exact) seconds "$parperf" locality -q -o "$work/exact" -- "$work/instrumented" "$2" ;;
    sampled) seconds "$parperf" locality -q --sample-rate "$rate" -o "$work/sampled" -- "$work/instrumented" "$2" ;;
    countdown) PARPERF_QUIET=1 PARPERF_MEM_TRACE=/dev/null seconds "$work/sampled_build" "$2" ;;
    bursts) seconds "$parperf" locality -q -o "$work/bursts" -- "$work/sampled_build" "$2" ;;
  esac
}
declare -A full_runs fixed_runs full fixed
for ((round = 0; round < rounds; ++round)); do
  for mode in "${modes[@]}"; do
    full_runs[$mode]+=" $(run "$mode" "$repeats")"
    fixed_runs[$mode]+=" $(run "$mode" 0)"
  done
done
for mode in "${modes[@]}"; do
  # shellcheck disable=SC2086  # the runs are a list of numbers
  full[$mode]=$(median ${full_runs[$mode]})
  # shellcheck disable=SC2086
  fixed[$mode]=$(median ${fixed_runs[$mode]})
done
loop() { awk -v a="${full[$1]}" -v b="${fixed[$1]}" 'BEGIN { print a - b }'; }
printf 'accesses per run: %d (%.2f ns per access uninstrumented), median of %d interleaved rounds\n' \
  "$accesses" "$(awk -v t="$(loop plain)" -v n="$accesses" 'BEGIN { print t * 1e9 / n }')" "$rounds"
printf '%-28s %9s %8s %11s %9s %13s\n' "" "run" "ratio" "fixed cost" "loop" "loop ratio"
for mode in "${modes[@]}"; do
  case $mode in
    plain) label="uninstrumented" ;;
    empty) label="empty hooks (the floor)" ;;
    file) label="capture to file" ;;
    exact) label="online, exact" ;;
    sampled) label="online, sampled at $rate" ;;
    countdown) label="inline countdown (floor)" ;;
    bursts) label="online, bursts (--sampled)" ;;
  esac
  printf '%-28s %8.3fs %7.2fx %10.3fs %8.3fs %12.2fx\n' "$label" "${full[$mode]}" \
    "$(ratio "${full[$mode]}" "${full[plain]}")" "${fixed[$mode]}" "$(loop "$mode")" \
    "$(ratio "$(loop "$mode")" "$(loop plain)")"
done
