#!/usr/bin/env bash
# The HTML report's quality bar (issue 16): the bundled example's page loads in under 0.5 s in
# headless chromium; a profile with 10 100 intervals on 64 processors gives a page under 3 MB that
# paints in under 1 s and expands a node in under 100 ms. Measures both pages from a Release build
# (scripts/test.sh or scripts/demo.sh) with chromium and playwright-core (scripts/install-browser.sh).
# Usage: bench/html/page_speed.sh [BUILD_DIR=build] [REPEATS=5]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
repeats=${2:-5}
parperf=$build/bin/parperf
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

"$parperf" run -q -o "$scratch/example" -- "$build/bin/parperf-example" >/dev/null
"$parperf" report "$scratch/example" --html "$scratch/example.html" >/dev/null
"$parperf" run -q -o "$scratch/many" -- "$build/bin/parperf-bench-many-intervals"
start=$(date +%s.%N)
"$parperf" report "$scratch/many" --html "$scratch/many-intervals.html" >/dev/null
end=$(date +%s.%N)
echo "parperf report --html of 10 100 intervals x 64 processors: $(echo "$end - $start" | bc) s"
node bench/html/page_speed.mjs "$repeats" "$scratch/example.html" "$scratch/many-intervals.html"
