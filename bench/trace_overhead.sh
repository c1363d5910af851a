#!/usr/bin/env bash
# What `parperf run --trace` costs on top of the profile alone.
#
# Part 1, the hot path: the annotation benchmark's begin/end pair (bench/interval_bench.cpp,
#   BM_PairDepth1, one thread) with the runtime tracing (PARPERF_TRACE=1) and without: the added ns
#   per pair / 2 is the recording cost per event on the program's thread. The writer's share (it
#   compresses on another core) is bench/trace_bench.cpp's BM_CompressBlock per event; the two added
#   are the amortized cost per event.
# Part 2, whole runs: an OpenMP stencil (clang, libomp, 2 threads) and an MPI halo stencil (2 ranks)
#   under `parperf run` and `parperf run --trace`, taking turns, median of REPS runs: the loop seconds
#   each program reports, the whole-run wall time, their ratios, and the trace's size per event.
# Targets are printed beside the figures; nothing fails on them (benchmarks report, tests assert).
#
# Usage: bench/trace_overhead.sh [BUILD_DIR=build]   environment: REPS (5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=overhead_common.sh
source "$root/bench/overhead_common.sh"
build=${1:-$root/build}
reps=${REPS:-5}
parperf=$build/bin/parperf
bench=$build/bin/parperf-bench
trace_bench=$build/bin/parperf-trace-bench
omp_stencil=$build/bin/parperf-bench-omp-stencil
mpi_stencil=$build/bin/parperf-bench-mpi-halo-stencil
for f in "$parperf" "$bench" "$trace_bench" "$omp_stencil" "$mpi_stencil"; do
  [ -x "$f" ] || { echo "bench/trace_overhead.sh: $f is missing; build $build first" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "event trace overhead; median of $reps runs of each variant, taking turns"
echo "machine: $(nproc) cores, $(busy_percent) % busy before the runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"

# ns per begin/end pair of BM_PairDepth1 (one thread), with PARPERF_TRACE=$1.
pair_ns() {
  PARPERF_TRACE=$1 PARPERF_DIR="$scratch/bench" PARPERF_QUIET=1 "$bench" --benchmark_filter='BM_PairDepth1/threads:1$' \
    --benchmark_format=csv 2>/dev/null | awk -F, '/BM_PairDepth1/ { print $4 }'
}
profile=() traced=()
for ((i = 0; i < reps; i++)); do
  profile+=("$(pair_ns 0)")
  traced+=("$(pair_ns 1)")
done
p=$(median "${profile[@]}")
t=$(median "${traced[@]}")
# ns per event of the writer's zstd compression (from items_per_second).
compress=$("$trace_bench" --benchmark_filter=BM_CompressBlock --benchmark_format=csv 2>/dev/null |
  awk -F, '/^name,/ { for (i = 1; i <= NF; i++) if ($i == "items_per_second") c = i } /BM_CompressBlock/ { printf "%.2f", 1e9 / $c }')
echo
echo "hot path (annotation begin/end pair, 1 thread): profile only ${p} ns, with the trace ${t} ns"
awk -v p="$p" -v t="$t" -v c="$compress" 'BEGIN {
  printf "  recording cost per event on the program thread: %.2f ns (pair ratio %.3f)\n", (t - p) / 2, t / p
  printf "  writer compression per event (another core): %.2f ns; amortized %.2f ns per event (target <= 15)\n", c, (t - p) / 2 + c }'

# "loop-seconds wall-seconds" of one run of "$@" (the program prints "seconds: S").
run_timed() {
  local start end out
  start=$(date +%s%N)
  out=$("$@" 2>"$scratch/stderr") || { echo "bench/trace_overhead.sh: $* failed:" >&2; cat "$scratch/stderr" >&2; exit 1; }
  end=$(date +%s%N)
  echo "$(sed -n 's/^seconds: //p' <<<"$out") $(awk -v ns="$((end - start))" 'BEGIN { printf "%.6f", ns / 1e9 }')"
}

# Whole runs of "$@" (after the variant's parperf options), profile only and traced, in turn.
compare() {
  local name=$1
  shift
  local loops_p=() walls_p=() loops_t=() walls_t=() times
  for ((i = 0; i < reps; i++)); do
    times=$(run_timed "$@" -o "$scratch/$name.p.$i" -- "${program[@]}")
    loops_p+=("${times% *}") walls_p+=("${times#* }")
    times=$(run_timed "$@" -o "$scratch/$name.t.$i" --trace -- "${program[@]}")
    loops_t+=("${times% *}") walls_t+=("${times#* }")
  done
  local lp lt wp wt bytes events
  lp=$(median "${loops_p[@]}") lt=$(median "${loops_t[@]}") wp=$(median "${walls_p[@]}") wt=$(median "${walls_t[@]}")
  bytes=$(cat "$scratch/$name".t.0/trace.*.ppt | wc -c)
  events=$("$parperf" trace "$scratch/$name.t.0" 2>/dev/null | tail -n +2 | wc -l)
  echo "$name: loop ${lp} s profile only, ${lt} s traced (ratio $(awk -v a="$lt" -v b="$lp" 'BEGIN { printf "%.3f", a / b }'), target <= 1.05);" \
    "whole run ${wp} s / ${wt} s (ratio $(awk -v a="$wt" -v b="$wp" 'BEGIN { printf "%.3f", a / b }'));" \
    "trace ${bytes} bytes for ${events} events ($(awk -v a="$bytes" -v b="$events" 'BEGIN { printf "%.2f", b ? a / b : 0 }') bytes per event, file overhead included)"
}
echo
program=("$omp_stencil")
compare "OpenMP stencil (2 threads)" "$parperf" run -q
program=("$mpi_stencil")
compare "MPI halo stencil (2 ranks)" "$parperf" run -q --np 2
