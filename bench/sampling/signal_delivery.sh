#!/usr/bin/env bash
# The kernel's part of a perf-event sample, by delivery (signal_delivery.c): REPS rounds taking turns
# (plain, clock, buffer, trap, signal), each mode's cost a period = (its loop's CPU time - the plain loop's) /
# its periods, median over the rounds. Usage: bench/sampling/signal_delivery.sh [BUILD_DIR]
# (REPS=7, PERIOD_NS=100000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
reps=${REPS:-7}
period=${PERIOD_NS:-100000}
# shellcheck source=../overhead_common.sh
source "$here/../overhead_common.sh"
program=$build/bin/parperf-bench-signal-delivery
declare -A costs
plains=()
for ((i = 0; i < reps; i++)); do
  read -r _ plain _ < <("$program" plain "$period")
  plains+=("$plain")
  for mode in clock buffer trap signal; do
    read -r _ seconds periods < <("$program" "$mode" "$period")
    costs[$mode]+="$(awk -v s="$seconds" -v p="$plain" -v n="$periods" 'BEGIN { printf "%.2f", (s - p) / n * 1e6 }') "
  done
done
echo "plain loop: $(median "${plains[@]}") s of CPU time (median of $reps)"
for mode in clock buffer trap signal; do
  # shellcheck disable=SC2086
  echo "$mode: $(median ${costs[$mode]}) us of the thread's CPU time a period of ${period} ns (rounds: ${costs[$mode]})"
done
