#!/usr/bin/env bash
# Whole-program overhead: the bundled example (about 40 000 interval entries a second on each of two
# threads) timed with the runtime disabled and under `parperf run`, median of N runs each, and the
# ratio of the two. Needs a Release build in build/ (scripts/demo.sh makes one).
# Usage: bench/overhead_ratio.sh [N=5]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
example=build/bin/parperf-example
parperf=build/bin/parperf
for f in "$example" "$parperf"; do
  [ -x "$f" ] || { echo "bench/overhead_ratio.sh: $f is missing; build first (scripts/demo.sh)" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Median wall-clock seconds of "$@" over $runs runs.
median_seconds() {
  local times=()
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=("$(( end - start ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)] / 1e9}'
}

plain=$(PARPERF_ENABLE=0 median_seconds "$example")
measured=$(median_seconds "$parperf" run -q --force -o "$scratch/run" -- "$example")
entries=$("$parperf" report --json "$scratch/run" | python3 -c '
import json, sys
def count(i): return i["count"] + sum(count(c) for c in i["children"])
print(sum(count(i) for i in json.load(sys.stdin)["intervals"]))')
size=$(stat -c %s "$scratch/run/profile.0.ppf")
echo "example unmeasured (PARPERF_ENABLE=0): ${plain} s   under parperf run: ${measured} s   (median of ${runs})"
echo "interval entries recorded: ${entries}   profile size: ${size} bytes"
awk -v a="$measured" -v b="$plain" 'BEGIN { printf "overhead ratio: %.3f\n", a / b }'
