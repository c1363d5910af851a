#!/usr/bin/env bash
# What call-path sampling costs (docs/runtime.md, "Call-path sampling"):
#  1. one sample: sample_cost.c's fixed work 20 calls deep, timed in its own CPU time, under
#     `parperf run` plain and with --sample=10000 --sample-clock=wall (elapsed-time timers are
#     high-resolution: nearly every period is a delivered signal, so the samples counted are the
#     handler's runs), median of REPS each, taking turns; (sampled - plain) / samples; beside it the
#     same work with a timer and an empty handler of the program's own (the kernel's part: signal
#     delivery and return, the timer's interrupt), so that parperf's own part shows;
#  2. the OpenMP stencil (bench/openmp/stencil.c, clang-16, 2 threads) under `parperf run` and
#     `parperf run --sample` (1 kHz of CPU time): the ratio of the sweeps' medians;
#  3. the MPI halo stencil (bench/mpi/halo_stencil.c, 2 ranks under mpirun) the same way: every rank
#     measured, and every rank measured and sampled; the ratio of rank 0's loop medians.
# The stencils' runs take turns, measured then sampled, and each pair's ratio is printed with the
# median of those ratios beside the ratio of the medians: a machine whose speed drifts between pairs
# moves both runs of a pair alike, so the pairs' median is the steadier figure.
# Usage: bench/sampling/overhead.sh [BUILD_DIR]   (REPS=5 by default; MPI_STENCIL="N SWEEPS", default
#        "2048 400"; PARTS="sample openmp mpi" by default, any of them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
reps=${REPS:-5}
# shellcheck source=../overhead_common.sh
source "$here/../overhead_common.sh"
parperf=$build/bin/parperf
cost=$build/bin/parperf-bench-sample-cost
stencil=$build/bin/parperf-bench-omp-stencil
mpi_stencil=$build/bin/parperf-bench-mpi-halo-stencil
read -r mpi_n mpi_sweeps <<<"${MPI_STENCIL:-2048 400}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

parts=${PARTS:-sample openmp mpi}
wanted() { [[ " $parts " == *" $1 "* ]]; }
seconds_of() { sed -n 's/^seconds: //p'; }
# The ratio of each pair (sampled[i] / plain[i]) and their median: "pairs 1.012 0.998 ...; median 1.005".
pair_ratios() {
  local -n p_=$1 s_=$2
  local ratios=() i
  for i in "${!p_[@]}"; do ratios+=("$(awk -v p="${p_[$i]}" -v s="${s_[$i]}" 'BEGIN { printf "%.3f", s / p }')"); done
  echo "pairs ${ratios[*]}; median of the pairs $(median "${ratios[@]}")"
}
samples_of() { "$parperf" report --json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["samples"]["samples"])'; }

echo "machine busy before the runs: $(busy_percent)%"
snapshot=$(busy_snapshot)
if wanted sample; then
plain=() sampled=() counts=() empty=() empty_counts=()
for ((i = 0; i < reps; i++)); do
  plain+=("$("$parperf" run -q -o "$scratch/p$i" -- "$cost" 20 | seconds_of)")
  sampled+=("$("$parperf" run -q --sample=10000 --sample-clock=wall -o "$scratch/s$i" -- "$cost" 20 | seconds_of)")
  counts+=("$(samples_of "$scratch/s$i")")
  out=$("$parperf" run -q -o "$scratch/e$i" -- "$cost" 20 400000000 empty-handler)
  empty+=("$(seconds_of <<<"$out")")
  empty_counts+=("$(sed -n 's/^signals: //p' <<<"$out")")
done
p=$(median "${plain[@]}") s=$(median "${sampled[@]}") n=$(median "${counts[@]}")
e=$(median "${empty[@]}") m=$(median "${empty_counts[@]}")
awk -v p="$p" -v s="$s" -v n="$n" -v e="$e" -v m="$m" 'BEGIN {
  a = (s - p) / n * 1e9; k = (e - p) / m * 1e9
  printf "one sample, 23 frames: plain %.4f s, sampled %.4f s, %d samples: %.0f ns a sample\n", p, s, n, a
  printf "an empty handler of the program: %.4f s, %d signals: %.0f ns a signal (the kernel'"'"'s part)\n", e, m, k
  printf "parperf'"'"'s own part of a sample: %.0f ns\n", a - k }'
fi

if wanted openmp; then
export OMP_NUM_THREADS=2
plain=() sampled=()
for ((i = 0; i < reps; i++)); do
  plain+=("$("$parperf" run -q -o "$scratch/op$i" -- "$stencil" | seconds_of)")
  sampled+=("$("$parperf" run -q --sample -o "$scratch/os$i" -- "$stencil" | seconds_of)")
done
p=$(median "${plain[@]}") s=$(median "${sampled[@]}")
awk -v p="$p" -v s="$s" -v n="$(samples_of "$scratch/os0")" 'BEGIN {
  printf "stencil, 2 threads: sweeps %.4f s measured, %.4f s measured and sampled at 1 kHz (%d samples): ratio %.3f, target <= 1.02\n", p, s, n, s / p }'
echo "stencil, 2 threads: $(pair_ratios plain sampled)"
unset OMP_NUM_THREADS
fi

if ! wanted mpi; then
  :
elif command -v mpirun >/dev/null && [ -x "$mpi_stencil" ]; then
  # Open MPI refuses to run as root without these (containers, CI).
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpi() { mpirun --oversubscribe -np 2 "$parperf" run -q "$@" 2>/dev/null | seconds_of; }
  plain=() sampled=()
  for ((i = 0; i < reps; i++)); do
    plain+=("$(mpi -o "$scratch/mp$i" -- "$mpi_stencil" "$mpi_n" "$mpi_sweeps")")
    sampled+=("$(mpi --sample -o "$scratch/ms$i" -- "$mpi_stencil" "$mpi_n" "$mpi_sweeps")")
  done
  p=$(median "${plain[@]}") s=$(median "${sampled[@]}")
  awk -v p="$p" -v s="$s" -v n="$(samples_of "$scratch/ms0")" 'BEGIN {
    printf "MPI halo stencil, 2 ranks: loop %.4f s measured, %.4f s measured and sampled at 1 kHz (%d samples): ratio %.3f, target <= 1.02\n", p, s, n, s / p }'
  echo "MPI halo stencil, 2 ranks: $(pair_ratios plain sampled)"
else
  echo "MPI halo stencil: skipped (no mpirun, or $mpi_stencil not built)"
fi
echo "other programs kept $(others_busy_since "$snapshot") cores busy during the runs"
