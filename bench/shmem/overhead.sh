#!/usr/bin/env bash
# What the OpenSHMEM collector costs: two oshcc-built programs timed under plain oshrun and under
# `parperf run --np` (every PE measured), REPS runs of each variant taking turns, the median of
# each kept.
#   put-get  CALLS shmem_long_p and CALLS shmem_long_g to the next PE: the time parperf adds to the
#            loop divided by a PE's calls is the cost of one measured put or get (target: 60 ns).
#   stencil  Jacobi sweeps with halo puts, quiet, barriers and a max reduction every 10 sweeps: the
#            overhead a real kernel sees (target: 3 %).
# Each program times its own loop (between two barriers, on PE 0), so start-up and the profiles'
# writing stay out. Targets are printed beside the figures; nothing fails on them.
#
# Usage: bench/shmem/overhead.sh [BUILD_DIR=build]
#   environment: REPS (5), PES (1 for put-get: on one PE the calls are cheapest, so the added cost
#                shows best; 2 for the stencil), CALLS (1000000), STENCIL_N (1024), STENCIL_SWEEPS (400)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
# shellcheck source=../overhead_common.sh
source "$root/bench/overhead_common.sh"
reps=${REPS:-5}
calls=${CALLS:-1000000}
put_get_pes=${PES:-1}
stencil_pes=${STENCIL_PES:-2}
stencil_n=${STENCIL_N:-1024}
stencil_sweeps=${STENCIL_SWEEPS:-400}
parperf=$build/bin/parperf
put_get=$build/bin/parperf-bench-shmem-put-get
stencil=$build/bin/parperf-bench-shmem-stencil
for f in "$parperf" "$put_get" "$stencil"; do
  [ -e "$f" ] || { echo "bench/shmem/overhead.sh: $f is missing; build $build first" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The loop's seconds ("seconds: S") of one run, plain or measured.
loop_seconds() {
  local variant=$1 np=$2
  shift 2
  local out
  if [ "$variant" = plain ]; then
    out=$(oshrun --oversubscribe --mca memory ^patcher -np "$np" "$@")
  else
    rm -rf "$scratch/run"
    out=$("$parperf" run -q --np "$np" -o "$scratch/run" -- "$@")
  fi
  sed -n 's/^seconds: //p' <<<"$out"
}

# The median of REPS runs of each variant, the variants taking turns.
medians() {
  local np=$1
  shift
  local plain=() measured=()
  for ((i = 0; i < reps; ++i)); do
    plain+=("$(loop_seconds plain "$np" "$@")")
    measured+=("$(loop_seconds measured "$np" "$@")")
  done
  echo "$(median "${plain[@]}") $(median "${measured[@]}")"
}

read -r plain measured < <(medians "$put_get_pes" "$put_get" "$calls")
awk -v p="$plain" -v m="$measured" -v n="$((2 * calls))" -v pes="$put_get_pes" 'BEGIN {
  printf "put-get   %d PE(s), %d calls a PE: plain %.4f s, measured %.4f s: %.1f ns a call added (target 60 ns)\n",
         pes, n, p, m, (m - p) / n * 1e9 }'
read -r plain measured < <(medians "$stencil_pes" "$stencil" "$stencil_n" "$stencil_sweeps")
awk -v p="$plain" -v m="$measured" -v pes="$stencil_pes" 'BEGIN {
  printf "stencil   %d PEs: plain %.4f s, measured %.4f s: %+.2f %% (target 3 %%)\n", pes, p, m, (m / p - 1) * 100 }'
