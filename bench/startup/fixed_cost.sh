#!/usr/bin/env bash
# What parperf adds to a program before it measures anything: the fixed cost of the `parperf`
# command and of the runtime, on programs that do nothing.
#   --version            the command alone (starting the executable and its libraries), against
#                        /bin/true
#   runtime alone        /bin/true with libparperf.so preloaded by hand (no command): the runtime's
#                        start-up and the profile it writes at exit
#   parperf run          `parperf run -q -o DIR -- /bin/true` against /bin/true: the whole cost a user
#                        sees (command + runtime); goal: at most 10 ms added
#   mpirun -np N         `mpirun -np N parperf run -q -o DIR -- mpi_init_finalize` against
#                        `mpirun -np N mpi_init_finalize` (built here with mpicc); goal: at most 15 ms
#                        added per rank
# Each figure is the median wall-clock time of REPS runs; the variants of one comparison take turns
# (A B A B ...), so that a drift of the machine's speed hits both alike. Targets are printed beside the
# figures; nothing fails on them (benchmarks report, tests assert).
#
# Usage: bench/startup/fixed_cost.sh [BUILD_DIR=build]
#   environment: REPS (21), RANKS (2), MPIRUN (mpirun), MPICC (mpicc)
# Run it on an otherwise idle machine: on a busy one, the other programs' load shows as cost.
set -euo pipefail
shopt -s inherit_errexit  # a failure inside $(...) ends the script too
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../overhead_common.sh
source "$root/bench/overhead_common.sh"
build=$(cd "${1:-$root/build}" && pwd)
reps=${REPS:-21}
ranks=${RANKS:-2}
mpirun=${MPIRUN:-mpirun}
mpicc=${MPICC:-mpicc}

parperf=$build/bin/parperf
runtime=$build/lib/libparperf.so
for f in "$parperf" "$runtime"; do
  [ -e "$f" ] || { echo "bench/startup/fixed_cost.sh: $f is missing; build $build first" >&2; exit 1; }
done
truth=$(type -P true)  # the program, not the shell builtin
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Open MPI refuses to run as root without these (containers, CI).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The wall-clock seconds of "$@" (its output thrown away; its failure ends the script).
seconds_of() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>"$scratch/stderr" || {
    echo "bench/startup/fixed_cost.sh: $* failed:" >&2
    cat "$scratch/stderr" >&2
    exit 1
  }
  end=$(date +%s%N)
  awk -v ns="$((end - start))" 'BEGIN { printf "%.9f", ns / 1e9 }'
}

# Runs the commands named by the functions $1 (plain) and $2 (measured) $reps times each, in turn,
# after one warm-up of each; prints their median seconds: "plain measured".
compare() {
  local plain=$1 measured=$2 i plain_times=() measured_times=()
  "$plain" >/dev/null 2>&1 || true
  "$measured" >/dev/null 2>&1 || true
  for ((i = 0; i < reps; i++)); do
    plain_times+=("$(seconds_of "$plain")")
    measured_times+=("$(seconds_of "$measured")")
  done
  echo "$(median "${plain_times[@]}") $(median "${measured_times[@]}")"
}

# One line: what, the two medians, the ratio, the milliseconds added (per `per` ranks), the goal.
report() {
  local what=$1 figures=$2 per=$3 goal=$4
  read -r plain measured <<<"$figures"
  awk -v what="$what" -v p="$plain" -v m="$measured" -v per="$per" -v goal="$goal" 'BEGIN {
    added = (m - p) * 1000
    printf "  %-34s %9.2f ms %9.2f ms %7.2f %+9.2f ms", what, p * 1000, m * 1000, m / p, added
    if (per > 1) printf " (%+.2f ms a rank)", added / per
    if (goal != "") printf "   goal %s", goal
    printf "\n"
  }'
}

plain_true() { "$truth"; }
version() { "$parperf" --version; }
runtime_alone() { LD_PRELOAD="$runtime" PARPERF_DIR="$scratch/preloaded" PARPERF_QUIET=1 "$truth"; }
run_true() { "$parperf" run -q --force -o "$scratch/run" -- "$truth"; }

echo "parperf fixed cost: median wall-clock time of $reps runs of each, the two variants in turn"
busy=$(busy_percent)
echo "machine: $(nproc) cores, ${busy} % busy before the runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
((busy < 10)) || echo "warning: the machine is busy: other programs' load will show as cost"
echo
echo "  $(printf '%-34s' 'measured (against)') $(printf '%12s %12s %7s %12s' plain measured ratio added)"
report "parperf --version (true)" "$(compare plain_true version)" 1 ""
report "runtime alone: true, preloaded" "$(compare plain_true runtime_alone)" 1 ""
report "parperf run -- true (true)" "$(compare plain_true run_true)" 1 "<= 10 ms"

if command -v "$mpicc" >/dev/null && command -v "$mpirun" >/dev/null; then
  "$mpicc" -O2 -o "$scratch/mpi_init_finalize" "$root/bench/startup/mpi_init_finalize.c"
  mpi_plain() { "$mpirun" --oversubscribe -np "$ranks" "$scratch/mpi_init_finalize"; }
  mpi_measured() {
    "$mpirun" --oversubscribe -np "$ranks" "$parperf" run -q --force -o "$scratch/mpi" -- "$scratch/mpi_init_finalize"
  }
  report "mpirun -np $ranks parperf run (mpirun)" "$(compare mpi_plain mpi_measured)" "$ranks" "<= 15 ms a rank"
else
  echo "  (no $mpicc or $mpirun in PATH: the MPI job is not measured)"
fi
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"
