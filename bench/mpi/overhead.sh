#!/usr/bin/env bash
# What the MPI collector costs: two mpicc-built programs timed under plain `mpirun` and under
# `mpirun ... parperf run` (every rank measured), at 2 and 4 ranks, median of REPS runs of each
# variant, the variants taking turns so drift hits both alike.
#   ping-pong  ROUND_TRIPS round trips of 8 bytes between pairs of ranks, 2 MPI calls a round trip
#              on every rank: the time parperf adds to the loop divided by a rank's calls is the cost
#              of one measured call.
#   stencil    about a second (2 ranks) of 2-D Jacobi sweeps with a halo exchange (Isend, Irecv,
#              Waitall) and an Allreduce every 10 sweeps: the overhead a real kernel sees.
# Each program times its own loop (MPI_Wtime on rank 0, between two barriers), so start-up, MPI_Init's
# clock and network measurements and the profiles' writing stay out of the loop figures; the
# whole-job wall time of `mpirun -np N prog` against `mpirun -np N parperf run -- prog`, which
# includes them, is printed beside them, with the time parperf added to the whole job.
#   empty job  the ping-pong with a single round trip: nothing but start-up and shut-down, so the
#              time parperf adds to it is its fixed cost per job (the CLI, the preload, MPI_Init's
#              clock exchange, the profiles' writing).
# Last, the profile size of every rank at two ping-pong lengths: it must not grow with the run.
# Targets are printed beside the figures; nothing fails on them (benchmarks report, tests assert).
#
# Usage: bench/mpi/overhead.sh [BUILD_DIR=build]
#   environment: REPS (5), RANKS ("2 4"), ROUND_TRIPS (200000), STENCIL_N (2048), STENCIL_SWEEPS (400),
#                MPIRUN (mpirun)
# Run it on an otherwise idle machine. 4 ranks on a 2-core machine are oversubscribed: Open MPI's
# waiting ranks poll and yield, so the 4-rank figures are noisier than the 2-rank ones.
set -euo pipefail
shopt -s inherit_errexit  # a failure inside $(...) ends the script too
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../overhead_common.sh
source "$root/bench/overhead_common.sh"
build=${1:-$root/build}
reps=${REPS:-5}
rank_counts=${RANKS:-2 4}
round_trips=${ROUND_TRIPS:-200000}
stencil_n=${STENCIL_N:-2048}
stencil_sweeps=${STENCIL_SWEEPS:-400}
mpirun=${MPIRUN:-mpirun}

parperf=$build/bin/parperf
pingpong=$build/bin/parperf-bench-mpi-pingpong
stencil=$build/bin/parperf-bench-mpi-halo-stencil
for f in "$parperf" "$pingpong" "$stencil"; do
  [ -e "$f" ] || { echo "bench/mpi/overhead.sh: $f is missing; build $build first" >&2; exit 1; }
done
command -v "$mpirun" >/dev/null || { echo "bench/mpi/overhead.sh: no $mpirun in PATH" >&2; exit 1; }
((round_trips >= 10)) || { echo "bench/mpi/overhead.sh: ROUND_TRIPS must be at least 10" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Open MPI refuses to run as root without these (containers, CI).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# "$@" on NP ranks, more ranks than cores allowed.
launch() {
  local np=$1
  shift
  "$mpirun" --oversubscribe -np "$np" "$@"
}

# The seconds a program reports for its timed loop ("seconds: S" on stdout), a space, and the
# wall-clock seconds of the whole command. The program's stderr is shown only when it fails.
run_timed() {
  local start end out loop
  start=$(date +%s%N)
  out=$("$@" 2>"$scratch/stderr") || {
    echo "bench/mpi/overhead.sh: $* failed:" >&2
    cat "$scratch/stderr" >&2
    exit 1
  }
  end=$(date +%s%N)
  loop=$(sed -n 's/^seconds: //p' <<<"$out")
  [ -n "$loop" ] || { echo "bench/mpi/overhead.sh: no 'seconds:' line from $*" >&2; exit 1; }
  echo "$loop $(awk -v ns="$((end - start))" 'BEGIN { printf "%.9f", ns / 1e9 }')"
}


# The variants, in the order measure() prints them.
variants=(plain measured)
run_variant() {
  local variant=$1 name=$2 np=$3 i=$4
  shift 4
  case $variant in
    plain) run_timed launch "$np" "$@" ;;
    measured) run_timed launch "$np" "$parperf" run -q -o "$scratch/$name.$np.measured.$i" -- "$@" ;;
  esac
}

# Runs "$@" on NP ranks $reps times in each variant, in turn. Prints, per variant, the median loop
# seconds and the median wall seconds; <name> names the run directories
# ($scratch/<name>.<np>.measured.0 ...).
measure() {
  local name=$1 np=$2
  shift 2
  local -A loops=() walls=()
  local i variant times
  for ((i = 0; i < reps; i++)); do
    for variant in "${variants[@]}"; do
      times=$(run_variant "$variant" "$name" "$np" "$i" "$@")
      loops[$variant]+=" ${times% *}" walls[$variant]+=" ${times#* }"
    done
  done
  for variant in "${variants[@]}"; do
    # shellcheck disable=SC2086  # the lists split into their values on purpose
    printf '%s %s ' "$(median ${loops[$variant]})" "$(median ${walls[$variant]})"
  done
  echo
}

# The sizes of profile.0.ppf .. profile.<np-1>.ppf of a run directory, space-separated.
profile_sizes() {
  local dir=$1 np=$2 rank sizes=()
  for ((rank = 0; rank < np; rank++)); do
    [ -f "$dir/profile.$rank.ppf" ] || { echo "bench/mpi/overhead.sh: $dir/profile.$rank.ppf was not written" >&2; exit 1; }
    sizes+=("$(stat -c %s "$dir/profile.$rank.ppf")")
  done
  echo "${sizes[*]}"
}

echo "MPI collector overhead: $("$mpirun" --version 2>/dev/null | head -1), mpicc -O2; median of $reps runs of each variant"
busy=$(busy_percent)
echo "machine: $(nproc) cores, ${busy} % busy before the runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
((busy < 10)) || echo "warning: the machine is busy: other programs' load will show as overhead"
echo
start_snapshot=$(busy_snapshot)

# --- empty job: the fixed cost of a measured job -------------------------------------------
echo "empty job: the ping-pong with 1 round trip, start to end (mpirun plain, and mpirun ... parperf run --)"
echo "  ranks     wall plain   wall measured   added to the job   added per rank   wall ratio"
for np in $rank_counts; do
  figures=$(measure empty "$np" "$pingpong" 1)
  read -r _ pw _ mw <<<"$figures"
  awk -v np="$np" -v pw="$pw" -v mw="$mw" 'BEGIN {
    printf "  %5d   %10.4f s    %10.4f s    %10.1f ms     %9.1f ms     %8.4f   target <= 15 ms per rank\n", np, pw, mw, (mw - pw) * 1e3, (mw - pw) * 1e3 / np, mw / pw
  }'
done
echo

# --- ping-pong --------------------------------------------------------------------------------
echo "ping-pong: $round_trips round trips of 8 bytes between pairs of ranks, $((2 * round_trips)) MPI calls a rank"
echo "  ranks     loop plain   loop measured   added per call      wall plain   wall measured   wall ratio   added to the job"
for np in $rank_counts; do
  figures=$(measure pingpong "$np" "$pingpong" "$round_trips")
  read -r pl pw ml mw <<<"$figures"
  awk -v np="$np" -v calls="$((2 * round_trips))" -v pl="$pl" -v pw="$pw" -v ml="$ml" -v mw="$mw" 'BEGIN {
    printf "  %5d   %10.4f s    %10.4f s    %9.1f ns      %8.4f s      %8.4f s     %8.4f   %8.1f ms\n", np, pl, ml, (ml - pl) * 1e9 / calls, pw, mw, mw / pw, (mw - pw) * 1e3
  }'
done
echo

# --- stencil ----------------------------------------------------------------------------------
echo "stencil: ${stencil_n}x${stencil_n} Jacobi, $stencil_sweeps sweeps, halo exchange (Irecv, Isend, Waitall) each, Allreduce every 10"
echo "  ranks     loop plain   loop measured   loop ratio      wall plain   wall measured   wall ratio   added to the job"
for np in $rank_counts; do
  figures=$(measure stencil "$np" "$stencil" "$stencil_n" "$stencil_sweeps")
  read -r pl pw ml mw <<<"$figures"
  awk -v np="$np" -v pl="$pl" -v pw="$pw" -v ml="$ml" -v mw="$mw" 'BEGIN {
    printf "  %5d   %10.4f s    %10.4f s    %8.4f (%+.2f %%)   %8.4f s      %8.4f s     %8.4f   %8.1f ms   target loop <= 3 %%\n", np, pl, ml, ml / pl, (ml / pl - 1) * 100, pw, mw, mw / pw, (mw - pw) * 1e3
  }'
done
echo

# --- profile sizes ----------------------------------------------------------------------------
# The profile holds the command line: the smaller count is written with leading zeros to the same
# width, so only what the runtime records can make the two sizes differ.
small=$((round_trips / 10))
echo "profile size per rank (ping-pong under parperf run), bytes"
for np in $rank_counts; do
  launch "$np" "$parperf" run -q -o "$scratch/sizes.$np.small" -- "$pingpong" "$(printf '%0*d' ${#round_trips} "$small")" \
    >/dev/null
  size_small=$(profile_sizes "$scratch/sizes.$np.small" "$np")
  size_full=$(profile_sizes "$scratch/pingpong.$np.measured.$((reps - 1))" "$np")
  verdict="the same"
  [ "$size_small" = "$size_full" ] || verdict="DIFFERENT: the profile grows with the run"
  printf '  %d ranks, %9d round trips: %s\n' "$np" "$small" "$size_small"
  printf '  %d ranks, %9d round trips: %s   %s\n' "$np" "$round_trips" "$size_full" "$verdict"
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs; other programs kept $(others_busy_since "$start_snapshot") cores busy during them"
