#!/usr/bin/env bash
# What an instrumented function's call costs (docs/instrumentation.md, "What it costs"): call_loop.c
# built three ways with the same compiler and options (-O2),
#   plain        without instrumentation
#   measured     `parperf cc --instrument=functions`, run on its own (it links the runtime and
#                measures itself): the hooks, the address lookup and the interval's begin and end
#   excluded     the same with leaf() excluded by a filter (leaf.filter): the hooks and the lookup
#                of the cached "excluded" entry only
# Each run prints the time of one call of leaf(), timed inside the program over CALLS calls; the
# figure is the median of REPS runs, the three builds taking turns (A B C A B C ...). The added
# cost is measured - plain (and excluded - plain). Nothing fails on the figures.
#
# Usage: bench/functions/function_cost.sh [BUILD_DIR=build]
#   environment: REPS (9), CALLS (10000000), PARPERF_CC (the compiler, gcc by default)
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../overhead_common.sh
source "$root/bench/overhead_common.sh"
build=$(cd "${1:-$root/build}" && pwd)
reps=${REPS:-9}
calls=${CALLS:-10000000}
compiler=${PARPERF_CC:-gcc}
parperf="$build/bin/parperf"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here="$root/bench/functions"

"$compiler" -O2 "$here/call_loop.c" -o "$work/plain"
PARPERF_CC=$compiler "$parperf" cc --instrument=functions -O2 "$here/call_loop.c" -o "$work/measured"
PARPERF_CC=$compiler "$parperf" cc --instrument=functions --filter "$here/leaf.filter" -O2 "$here/call_loop.c" \
  -o "$work/excluded" 2>/dev/null

echo "machine busy before the runs: $(busy_percent)% of its CPUs"
snapshot=$(busy_snapshot)
plain=() measured=() excluded=()
for ((i = 0; i < reps; i++)); do
  plain+=("$("$work/plain" "$calls")")
  measured+=("$(PARPERF_QUIET=1 PARPERF_DIR="$work/run" "$work/measured" "$calls")")
  rm -rf "$work/run"
  excluded+=("$(PARPERF_QUIET=1 PARPERF_DIR="$work/run" "$work/excluded" "$calls")")
  rm -rf "$work/run"
done
p=$(median "${plain[@]}")
m=$(median "${measured[@]}")
e=$(median "${excluded[@]}")
echo "compiler $compiler -O2, $calls calls of an empty function, median of $reps runs each (ns a call):"
echo "  plain      $p"
echo "  measured   $m   (+$(awk -v a="$m" -v b="$p" 'BEGIN { printf "%.1f", a - b }') ns: hooks, lookup, interval begin and end)"
echo "  excluded   $e   (+$(awk -v a="$e" -v b="$p" 'BEGIN { printf "%.1f", a - b }') ns: hooks and the lookup of the excluded entry)"
echo "other programs kept $(others_busy_since "$snapshot") cores busy meanwhile"
