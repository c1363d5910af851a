#!/usr/bin/env bash
# What the OpenMP collector costs: two clang-16 (libomp) programs timed plain and under
# `parperf run`, median of REPS runs of each variant, the variants taking turns so drift hits all
# alike.
#   tiny regions  R empty parallel regions of 2 threads, the worst case: the time parperf adds per
#                 region divided by the OMPT callbacks libomp delivers per region (counted by
#                 callback_counter.c) is the cost of one callback.
#   stencil       about a second of Jacobi sweeps on 2 threads: the overhead a real kernel sees.
# Each program times its own loop, so start-up and the profile's writing stay out of the loop
# figures; the stencil's whole-run wall time, which includes them, is printed too.
# Two more variants split the cost: the callback counter as the only tool (libomp's OMPT dispatch
# and an empty callback: the floor under any tool) and `parperf run` with PARPERF_OPENMP=0 (the
# runtime preloaded, no OMPT tool). Targets are printed beside the figures; nothing fails on them
# (benchmarks report, tests assert).
#
# Usage: bench/openmp/overhead.sh [BUILD_DIR=build]
#   environment: REPS (5), REGIONS (200000), STENCIL_N (2000), STENCIL_SWEEPS (200)
# Run it on an otherwise idle machine: with 2 cores and 2 spinning OpenMP threads, any other load
# shows up as overhead (the load average is printed before and after).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../overhead_common.sh
source "$root/bench/overhead_common.sh"
build=${1:-$root/build}
reps=${REPS:-5}
regions=${REGIONS:-200000}
stencil_n=${STENCIL_N:-2000}
stencil_sweeps=${STENCIL_SWEEPS:-200}

parperf=$build/bin/parperf
tiny=$build/bin/parperf-bench-omp-tiny-regions
stencil=$build/bin/parperf-bench-omp-stencil
counter=$build/lib/libcallback_counter.so
for f in "$parperf" "$tiny" "$stencil" "$counter"; do
  [ -e "$f" ] || { echo "bench/openmp/overhead.sh: $f is missing; build $build first" >&2; exit 1; }
done
((regions >= 10)) || { echo "bench/openmp/overhead.sh: REGIONS must be at least 10" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The seconds a program reports for its timed loop ("seconds: S" on stdout), a space, and the
# wall-clock seconds of the whole command. The program's stderr is dropped.
run_timed() {
  local start end out loop
  start=$(date +%s%N)
  out=$("$@" 2>/dev/null)
  end=$(date +%s%N)
  loop=$(sed -n 's/^seconds: //p' <<<"$out")
  [ -n "$loop" ] || { echo "bench/openmp/overhead.sh: no 'seconds:' line from $*" >&2; exit 1; }
  echo "$loop $(awk -v ns="$((end - start))" 'BEGIN { printf "%.9f", ns / 1e9 }')"
}


# The total the callback counter prints when libomp finalizes it.
count_callbacks() {
  local total
  total=$(OMP_TOOL_LIBRARIES=$counter "$@" 2>&1 >/dev/null | sed -n 's/^ompt callbacks: //p')
  [ -n "$total" ] || { echo "bench/openmp/overhead.sh: the callback counter did not report for $*" >&2; exit 1; }
  echo "$total"
}

# The variants, in the order measure() prints them.
variants=(plain counter preload measured)
run_variant() {
  local variant=$1 name=$2 i=$3
  shift 3
  case $variant in
    plain) run_timed "$@" ;;
    counter) OMP_TOOL_LIBRARIES=$counter run_timed "$@" ;;
    preload) PARPERF_OPENMP=0 run_timed "$parperf" run -q -o "$scratch/$name.preload.$i" -- "$@" ;;
    measured) run_timed "$parperf" run -q -o "$scratch/$name.measured.$i" -- "$@" ;;
  esac
}

# Runs "$@" $reps times in each variant, in turn. Prints, per variant, the median loop seconds and
# the median wall seconds; <name> names the run directories ($scratch/<name>.measured.0 ...).
measure() {
  local name=$1
  shift
  local -A loops=() walls=()
  local i variant times
  for ((i = 0; i < reps; i++)); do
    for variant in "${variants[@]}"; do
      times=$(run_variant "$variant" "$name" "$i" "$@")
      loops[$variant]+=" ${times% *}" walls[$variant]+=" ${times#* }"
    done
  done
  for variant in "${variants[@]}"; do
    # shellcheck disable=SC2086  # the lists split into their values on purpose
    printf '%s %s ' "$(median ${loops[$variant]})" "$(median ${walls[$variant]})"
  done
  echo
}

profile_size() {
  local file=$1/profile.0.ppf
  [ -f "$file" ] || { echo "bench/openmp/overhead.sh: $file was not written" >&2; exit 1; }
  stat -c %s "$file"
}

echo "OpenMP collector overhead: clang-16 -O2, libomp, 2 threads; median of $reps runs of each variant"
busy=$(busy_percent)
echo "machine: $(nproc) cores, ${busy} % busy before the runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
((busy < 10)) || echo "warning: the machine is busy: other programs' load will show as overhead"
echo

# --- tiny regions -----------------------------------------------------------------------------
read -r plain _ counted _ preload _ measured _ <<<"$(measure tiny "$tiny" "$regions")"
callbacks_all=$(count_callbacks "$tiny" "$regions")
callbacks_none=$(count_callbacks "$tiny" 0)
ns_per_callback=$(awk -v r="$regions" -v plain="$plain" -v measured="$measured" -v all="$callbacks_all" \
  -v none="$callbacks_none" 'BEGIN { printf "%.2f", (measured - plain) * 1e9 / (all - none) }')
awk -v r="$regions" -v plain="$plain" -v counted="$counted" -v preload="$preload" -v measured="$measured" \
    -v all="$callbacks_all" -v none="$callbacks_none" 'BEGIN {
  per_region = (all - none) / r
  per_callback = r * per_region / 1e9  # seconds of difference -> ns per callback
  printf "tiny regions: %d empty parallel regions of 2 threads, %.2f OMPT callbacks each\n", r, per_region
  printf "  (callback_counter: %d callbacks with R regions, %d with none)\n", all, none
  printf "                                          per region      added per callback\n"
  printf "  plain                                 %9.1f ns\n", plain / r * 1e9
  printf "  counting tool (libomp OMPT floor)     %9.1f ns      %7.1f ns\n", counted / r * 1e9, (counted - plain) / per_callback
  printf "  parperf run, PARPERF_OPENMP=0         %9.1f ns      %7.1f ns   (runtime preloaded, no OMPT tool)\n", preload / r * 1e9, (preload - plain) / per_callback
  printf "  parperf run                           %9.1f ns      %7.1f ns   target <= 30 ns\n", measured / r * 1e9, (measured - plain) / per_callback
  printf "  parperf run - counting tool                              %7.1f ns   (the collector itself)\n", (measured - counted) / per_callback
}'
echo

# --- stencil ----------------------------------------------------------------------------------
read -r pl pw cl cw ol ow ml mw <<<"$(measure stencil "$stencil" "$stencil_n" "$stencil_sweeps")"
stencil_callbacks=$(count_callbacks "$stencil" "$stencil_n" "$stencil_sweeps")
awk -v n="$stencil_n" -v sweeps="$stencil_sweeps" -v cb="$stencil_callbacks" -v ns="$ns_per_callback" -v pl="$pl" -v pw="$pw" \
    -v cl="$cl" -v cw="$cw" -v ol="$ol" -v ow="$ow" -v ml="$ml" -v mw="$mw" 'BEGIN {
  printf "stencil: %dx%d Jacobi, %d sweeps, a parallel for with a reduction each; %d OMPT callbacks (%.1f a sweep)\n", n, n, sweeps, cb, cb / sweeps
  printf "                                        sweeps (timed)        whole run (wall)\n"
  printf "  plain                                 %8.4f s             %8.4f s\n", pl, pw
  printf "  counting tool (libomp OMPT floor)     %8.4f s %+7.2f %%   %8.4f s %+7.2f %%\n", cl, (cl / pl - 1) * 100, cw, (cw / pw - 1) * 100
  printf "  parperf run, PARPERF_OPENMP=0         %8.4f s %+7.2f %%   %8.4f s %+7.2f %%\n", ol, (ol / pl - 1) * 100, ow, (ow / pw - 1) * 100
  printf "  parperf run                           %8.4f s %+7.2f %%   %8.4f s %+7.2f %%   target <= 3 %%\n", ml, (ml / pl - 1) * 100, mw, (mw / pw - 1) * 100
  printf "  ratio parperf run / plain             %8.4f               %8.4f\n", ml / pl, mw / pw
  printf "  expected: %d callbacks x %.1f ns (tiny regions) = %.3f ms, %+.3f %%; the rest is noise\n", cb, ns, cb * ns / 1e6, cb * ns / 1e9 / pl * 100
}'
echo

# --- profile sizes ----------------------------------------------------------------------------
# The profile holds the command line: the smaller count is written with leading zeros to the same
# width, so only what the runtime records can make the two sizes differ.
small=$((regions / 10))
"$parperf" run -q -o "$scratch/tiny.small" -- "$tiny" "$(printf '%0*d' ${#regions} "$small")" >/dev/null
size_small=$(profile_size "$scratch/tiny.small")
size_full=$(profile_size "$scratch/tiny.measured.$((reps - 1))")
size_stencil=$(profile_size "$scratch/stencil.measured.$((reps - 1))")
verdict="the same"
[ "$size_small" = "$size_full" ] || verdict="DIFFERENT: the profile grows with the run"
echo "profile size (profile.0.ppf of a parperf run)"
printf '  tiny regions, R=%-9d %8d bytes\n' "$small" "$size_small"
printf '  tiny regions, R=%-9d %8d bytes   %s\n' "$regions" "$size_full" "$verdict"
printf '  stencil                  %8d bytes\n' "$size_stencil"
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"
