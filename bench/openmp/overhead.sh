#!/usr/bin/env bash
# What the OpenMP collector costs, and what `parperf run` changes in the programs it measures.
#
# Part 1, clang-16 (libomp) programs timed plain and under `parperf run`:
#   tiny regions  R empty parallel regions of 2 threads, the worst case: the time parperf adds per
#                 region divided by the OMPT callbacks libomp delivers per region (counted by
#                 callback_counter.c) is the cost of one callback.
#   stencil       about a second of Jacobi sweeps on 2 threads: the overhead a real kernel sees.
# Two more variants split the cost: the callback counter as the only tool (libomp's OMPT dispatch
# and an empty callback: the floor under any tool) and `parperf run` with PARPERF_OPENMP=0 (the
# runtime preloaded, no OMPT tool).
# Part 2, gcc-built programs (GNU libgomp), in three columns: native libgomp, libomp preloaded
# (LD_PRELOAD=<libomp>, the runtime `parperf run` swaps in for libgomp) and `parperf run`, so the
# runtime swap (libomp / native) and the tool itself (parperf run / libomp) show apart:
#   the same two kernels built with gcc, and
#   alloc steps   an allocation-heavy kernel built with g++ (alloc_steps.cpp): every time step
#                 allocates and frees about 20 MB of temporaries in its serial part. Its minor page
#                 faults are printed beside the times: a runtime that disturbs glibc's malloc
#                 changes them (and the time) by a large factor, and that is a wrong measurement,
#                 not overhead.
# Each program times its own loop, so start-up and the profile's writing stay out of the loop
# figures; the whole-run wall time, which includes them, is printed too, and the minor page faults
# of the whole run (/usr/bin/time) beside those the allocation kernel counts in its loop.
# Every figure is the median of REPS runs, the variants taking turns so drift hits all alike.
# Targets are printed beside the figures; nothing fails on them (benchmarks report, tests assert).
#
# Usage: bench/openmp/overhead.sh [BUILD_DIR=build]
#   environment: REPS (5), REGIONS (200000), STENCIL_N (2000), STENCIL_SWEEPS (200),
#                ALLOC_ELEMENTS (91125), ALLOC_STEPS (100), LIBOMP (PARPERF_LIBOMP of the build's
#                CMake cache)
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
alloc_elements=${ALLOC_ELEMENTS:-91125}
alloc_steps=${ALLOC_STEPS:-100}

parperf=$build/bin/parperf
tiny=$build/bin/parperf-bench-omp-tiny-regions
stencil=$build/bin/parperf-bench-omp-stencil
counter=$build/lib/libcallback_counter.so
tiny_gcc=$build/bin/parperf-bench-omp-tiny-regions-gcc
stencil_gcc=$build/bin/parperf-bench-omp-stencil-gcc
alloc_gcc=$build/bin/parperf-bench-omp-alloc-steps-gcc
for f in "$parperf" "$tiny" "$stencil" "$counter" "$tiny_gcc" "$stencil_gcc" "$alloc_gcc" /usr/bin/time; do
  [ -e "$f" ] || { echo "bench/openmp/overhead.sh: $f is missing; build $build first (/usr/bin/time: apt-get install time)" >&2; exit 1; }
done
# The libomp that `parperf run` swaps in for libgomp: the one the build found, as parperf uses it.
libomp=${LIBOMP:-$(sed -n 's/^PARPERF_LIBOMP:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)}
[ -f "$libomp" ] || { echo "bench/openmp/overhead.sh: no libomp ('$libomp'); set LIBOMP" >&2; exit 1; }
((regions >= 10)) || { echo "bench/openmp/overhead.sh: REGIONS must be at least 10" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Four figures of one run of "$@": the seconds the program reports for its timed loop ("seconds: S"
# on stdout), the wall-clock seconds of the whole command, the minor page faults the program reports
# for its loop ("minor faults: N", or - when it does not count them) and the minor page faults of the
# whole command with its children (/usr/bin/time). The program's stderr is dropped.
run_timed() {
  local start end out loop faults
  start=$(date +%s%N)
  out=$(/usr/bin/time -f %R -o "$scratch/faults" "$@" 2>/dev/null)
  end=$(date +%s%N)
  loop=$(sed -n 's/^seconds: //p' <<<"$out")
  [ -n "$loop" ] || { echo "bench/openmp/overhead.sh: no 'seconds:' line from $*" >&2; exit 1; }
  faults=$(sed -n 's/^minor faults: //p' <<<"$out")
  echo "$loop $(awk -v ns="$((end - start))" 'BEGIN { printf "%.9f", ns / 1e9 }') ${faults:--} $(tail -1 "$scratch/faults")"
}

# The total the callback counter prints when libomp finalizes it.
count_callbacks() {
  local total
  total=$(OMP_TOOL_LIBRARIES=$counter "$@" 2>&1 >/dev/null | sed -n 's/^ompt callbacks: //p')
  [ -n "$total" ] || { echo "bench/openmp/overhead.sh: the callback counter did not report for $*" >&2; exit 1; }
  echo "$total"
}

# How each variant runs "$@". The clang programs run plain, with the counting tool, under
# `parperf run` without the OpenMP collector (preload) and under `parperf run` (measured); the gcc
# programs natively on libgomp (native), on libomp preloaded (libomp) and under `parperf run`.
run_variant() {
  local variant=$1 name=$2 i=$3
  shift 3
  case $variant in
    plain | native) run_timed "$@" ;;
    counter) run_timed env OMP_TOOL_LIBRARIES="$counter" "$@" ;;
    libomp) run_timed env LD_PRELOAD="$libomp${LD_PRELOAD:+:$LD_PRELOAD}" "$@" ;;
    preload) run_timed env PARPERF_OPENMP=0 "$parperf" run -q -o "$scratch/$name.preload.$i" -- "$@" ;;
    measured) run_timed "$parperf" run -q -o "$scratch/$name.measured.$i" -- "$@" ;;
  esac
}

# Runs "$@" $reps times in each of the variants named before the --, in turn, and sets, per
# variant, the medians LOOP[variant] (loop seconds), WALL[variant] (whole-run seconds),
# FAULTS[variant] (the loop's minor faults, - if not counted) and RUN_FAULTS[variant] (the whole
# run's). <name> names the run directories ($scratch/<name>.measured.0 ...).
declare -A LOOP WALL FAULTS RUN_FAULTS
measure() {
  local name=$1 variants=() i variant
  shift
  while [ "$1" != -- ]; do variants+=("$1"); shift; done
  shift
  local -A loops=() walls=() faults=() run_faults=()
  local loop wall fault run_fault
  for ((i = 0; i < reps; i++)); do
    for variant in "${variants[@]}"; do
      read -r loop wall fault run_fault <<<"$(run_variant "$variant" "$name" "$i" "$@")"
      loops[$variant]+=" $loop" walls[$variant]+=" $wall" faults[$variant]+=" $fault" run_faults[$variant]+=" $run_fault"
    done
  done
  for variant in "${variants[@]}"; do
    # shellcheck disable=SC2086  # the lists split into their values on purpose
    LOOP[$variant]=$(median ${loops[$variant]}) WALL[$variant]=$(median ${walls[$variant]})
    # shellcheck disable=SC2086
    RUN_FAULTS[$variant]=$(median ${run_faults[$variant]})
    # shellcheck disable=SC2086
    if [[ ${faults[$variant]} == *-* ]]; then FAULTS[$variant]=-; else FAULTS[$variant]=$(median ${faults[$variant]}); fi
  done
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
start_snapshot=$(busy_snapshot)

# --- tiny regions -----------------------------------------------------------------------------
measure tiny plain counter preload measured -- "$tiny" "$regions"
plain=${LOOP[plain]} counted=${LOOP[counter]} preload=${LOOP[preload]} measured=${LOOP[measured]}
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
measure stencil plain counter preload measured -- "$stencil" "$stencil_n" "$stencil_sweeps"
pl=${LOOP[plain]} pw=${WALL[plain]} cl=${LOOP[counter]} cw=${WALL[counter]}
ol=${LOOP[preload]} ow=${WALL[preload]} ml=${LOOP[measured]} mw=${WALL[measured]}
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

# --- gcc-built programs: native libgomp, libomp preloaded, parperf run -------------------------
gcc_variants=(native libomp measured)
# One row of the three columns: a label, a printf format for one value, the three values.
row() {
  local label=$1 format=$2
  shift 2
  printf '  %-30s' "$label"
  local value
  for value in "$@"; do
    # shellcheck disable=SC2059  # the format is the caller's
    if [ "$value" = - ]; then printf '%18s' -; else printf "%18s" "$(printf "$format" "$value")"; fi
  done
  echo
}
# The ratios of the three columns that tell the runtime swap and the tool apart, for one figure.
ratios() {
  local label=$1 native=$2 swapped=$3 measured=$4
  awk -v l="$label" -v n="$native" -v s="$swapped" -v m="$measured" 'BEGIN {
    printf "  %-30s libomp/native %.3f   parperf run/libomp %.3f   parperf run/native %.3f\n", l, s / n, m / s, m / n
  }'
}
# The rows of one gcc program after measure(): loop, whole run, the faults, and their ratios.
report_gcc() {
  local loop_label=$1
  row "$loop_label" '%.4f s' "${LOOP[native]}" "${LOOP[libomp]}" "${LOOP[measured]}"
  row "whole run (wall)" '%.4f s' "${WALL[native]}" "${WALL[libomp]}" "${WALL[measured]}"
  [ "${FAULTS[native]}" = - ] || row "minor page faults (loop)" '%d' "${FAULTS[native]}" "${FAULTS[libomp]}" "${FAULTS[measured]}"
  row "minor page faults (whole run)" '%d' "${RUN_FAULTS[native]}" "${RUN_FAULTS[libomp]}" "${RUN_FAULTS[measured]}"
  ratios "ratio, $loop_label" "${LOOP[native]}" "${LOOP[libomp]}" "${LOOP[measured]}"
  ratios "ratio, whole run" "${WALL[native]}" "${WALL[libomp]}" "${WALL[measured]}"
  [ "${FAULTS[native]}" = - ] || ratios "ratio, faults (loop)" "${FAULTS[native]}" "${FAULTS[libomp]}" "${FAULTS[measured]}"
}

echo "gcc-built programs (gcc/g++ -O2 -fopenmp, GNU libgomp), median of $reps runs of each column;"
echo "libomp preloaded: LD_PRELOAD=$libomp, the runtime parperf run swaps in for libgomp"
printf '  %-30s%18s%18s%18s\n' "" "native libgomp" "libomp preloaded" "parperf run"
echo

measure tiny_gcc "${gcc_variants[@]}" -- "$tiny_gcc" "$regions"
echo "tiny regions (gcc): $regions empty parallel regions of 2 threads"
row "per region" '%.1f ns' "$(awk -v s="${LOOP[native]}" -v r="$regions" 'BEGIN { print s / r * 1e9 }')" \
  "$(awk -v s="${LOOP[libomp]}" -v r="$regions" 'BEGIN { print s / r * 1e9 }')" \
  "$(awk -v s="${LOOP[measured]}" -v r="$regions" 'BEGIN { print s / r * 1e9 }')"
report_gcc "regions (timed)"
echo

measure stencil_gcc "${gcc_variants[@]}" -- "$stencil_gcc" "$stencil_n" "$stencil_sweeps"
echo "stencil (gcc): ${stencil_n}x${stencil_n} Jacobi, $stencil_sweeps sweeps"
report_gcc "sweeps (timed)"
echo

measure alloc_gcc "${gcc_variants[@]}" -- "$alloc_gcc" "$alloc_elements" "$alloc_steps"
echo "alloc steps (g++): $alloc_steps steps of $alloc_elements elements, about 20 MB of temporaries allocated and freed a step"
report_gcc "steps (timed)"
echo "  (parperf run must leave the faults as they are with libomp preloaded: a different count means the"
echo "   runtime changed how glibc's malloc serves the program, and the measured time is not the program's)"
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
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs; other programs kept $(others_busy_since "$start_snapshot") cores busy during them"
