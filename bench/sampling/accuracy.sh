#!/usr/bin/env bash
# How right the sampled shares are (docs/runtime.md, "Call-path sampling": accuracy): known_split.c's
# programs (-O2, no frame pointers) with a known split of CPU time between heavy and light, under
# `parperf run --sample` (1 kHz of CPU time) and under `perf record -e cpu-clock -F 1000 --call-graph
# dwarf` (skipped when perf is absent or not allowed), taking turns, REPS times each:
#   - alternating calls, light PERIOD ms and heavy 3 x PERIOD, for PERIOD 1, 4 (the 250 Hz tick's
#     period: in step with a tick-driven clock) and 10 ms;
#   - the same 8 ms split 40 calls deep.
# The same under parperf's POSIX timers (PARPERF_SAMPLE_SOURCE=timer: the fallback where the kernel
# refuses perf events), which fire at the tick. For each tool: the worst error of heavy's share of heavy + light against the program's own CPU-clock
# split (points), and the fraction of all samples whose call path reaches main.
# Usage: bench/sampling/accuracy.sh [BUILD_DIR]   (REPS=3 by default)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
reps=${REPS:-3}
parperf=$build/bin/parperf
program=$build/bin/parperf-bench-known-split
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# KEEP=1: print each run's line (case, truth, heavy, light, reaching main, all samples).
keep=${KEEP:-0}

cases=("alternate 1 100" "alternate 4 25" "alternate 10 10" "deep 40 12")
have_perf=0
if command -v perf >/dev/null && perf record -q -e cpu-clock -o "$scratch/probe.data" -- true 2>/dev/null; then
  have_perf=1
else
  echo "perf: absent or not allowed here, skipped"
fi

# "<truth> <heavy> <light> <reaching main> <all>" of a parperf run directory.
parperf_counts() {
  "$parperf" report --folded "$1" | awk -v truth="$2" '
    { n = $NF; all += n; line = $0
      if (line ~ /;heavy( |;)/) h += n; else if (line ~ /;light( |;)/) l += n
      if (line ~ /;main;/ || line ~ /;main /) m += n }
    END { print truth, h + 0, l + 0, m + 0, all + 0 }'
}

# The same of a perf.data file: perf script prints each sample's frames, innermost first, then a blank line.
perf_counts() {
  perf script -i "$1" -F ip,sym 2>/dev/null | awk -v truth="$2" '
    function close_sample() { if (!open) return; all++; if (inh) h++; else if (inl) l++; if (inm) m++; open = inh = inl = inm = 0 }
    /^[[:space:]]*$/ { close_sample(); next }
    { open = 1; if ($2 == "heavy") inh = 1; if ($2 == "light") inl = 1; if ($2 == "main") inm = 1 }
    END { close_sample(); print truth, h + 0, l + 0, m + 0, all + 0 }'
}

: >"$scratch/parperf.txt"
: >"$scratch/timer.txt"
: >"$scratch/perf.txt"
for ((r = 0; r < reps; r++)); do
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    truth=$("$parperf" run -q --sample=1000 -o "$scratch/run" -- "$program" $c | sed -n 's/^true heavy share: //p')
    echo "$c $(parperf_counts "$scratch/run" "$truth")" >>"$scratch/parperf.txt"
    rm -rf "$scratch/run"
    # shellcheck disable=SC2086
    truth=$(PARPERF_SAMPLE_SOURCE=timer "$parperf" run -q --sample=1000 -o "$scratch/run" -- "$program" $c |
      sed -n 's/^true heavy share: //p')
    echo "$c $(parperf_counts "$scratch/run" "$truth")" >>"$scratch/timer.txt"
    rm -rf "$scratch/run"
    if ((have_perf)); then
      # shellcheck disable=SC2086
      truth=$(perf record -q -e cpu-clock -F 1000 --call-graph dwarf -o "$scratch/perf.data" -- "$program" $c 2>/dev/null |
        sed -n 's/^true heavy share: //p')
      echo "$c $(perf_counts "$scratch/perf.data" "$truth")" >>"$scratch/perf.txt"
    fi
  done
done

summary() {
  awk -v tool="$1" '
    { truth = $4; h = $5; l = $6; m = $7; all = $8; c = $1 " " $2
      share = h + l > 0 ? h / (h + l) : 0; err = (share - truth) * 100; if (err < 0) err = -err
      if (err > worst[c]) worst[c] = err; if (err > w) w = err
      mains += m; alls += all }
    END { printf "%-24s worst share error %.1f points (", tool, w
          sep = ""; for (c in worst) { printf "%s%s %.1f", sep, c, worst[c]; sep = ", " }
          printf "); samples reaching main %.1f %%\n", (alls > 0 ? 100 * mains / alls : 0) }' "$2"
}
if ((keep)); then cat "$scratch/parperf.txt" "$scratch/timer.txt" "$scratch/perf.txt"; fi
summary parperf "$scratch/parperf.txt"
summary "parperf (POSIX timers)" "$scratch/timer.txt"
if ((have_perf)); then summary perf "$scratch/perf.txt"; fi
