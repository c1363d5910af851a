#!/usr/bin/env bash
# How well `parperf predict` predicts a processor count it has not seen: each program is swept over
# 1, 2, 4, 8 and 16 processors (REPS repetitions each, taking turns), the models are fitted to the
# runs at 1-8 only, and their prediction at 16 is compared with the time measured there. The
# programs' scaling is known by construction (tests/scenarios/scaling_prediction):
#   omp       T(p) = 0.15 + 1.2/p s over OpenMP threads (Amdahl, f = 0.111)
#   mpi       the same over MPI ranks
#   mpi-grow  T(p) = 0.15 + 1.2/p + 0.02·p s over MPI ranks: an exchange that grows with the ranks,
#             whose scaling turns around at p = 7.7 (a change of regime Amdahl's law cannot describe)
# The work is sleeping, so 16 threads or ranks on 2 cores run as they would on 16 cores.
# Prints, per program: measured T(16), predicted T(16) (from 1-8), the error, the chosen model, its
# leave-one-out error, Amdahl's f, and the warnings. Targets: within 10 % where the behaviour does
# not change regime, and a warning where it does. Nothing fails on them (a benchmark reports).
#
# Usage: bench/predict/accuracy.sh [BUILD_DIR=build]    environment: REPS (2)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
reps=${REPS:-2}
parperf=$build/bin/parperf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

sweep() {  # name, then parperf run options before --, then the program and its arguments
  local name=$1
  shift
  local options=()
  while [ "$1" != "--" ]; do options+=("$1"); shift; done
  shift
  "$parperf" run -q --sweep 1,2,4,8,16 --repeat "$reps" "${options[@]}" -o "$work/$name" -- "$@" >/dev/null 2>&1
}

report() {  # name
  local dir=$work/$1 known=()
  for run in "$dir"/p1-* "$dir"/p2-* "$dir"/p4-* "$dir"/p8-*; do known+=("$run"); done
  "$parperf" predict --json "$dir" >"$work/all.json"
  "$parperf" predict --json "${known[@]}" >"$work/known.json"
  python3 - "$1" "$work/all.json" "$work/known.json" <<'PY'
import json, sys
name, all_runs, known = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
measured = next(m["median"] for m in all_runs["groups"][0]["program"]["measured"] if m["processors"] == 16)
fit = known["groups"][0]["program"]
predicted = next(r["time"] for r in fit["predictions"] if r["processors"] == 16)
model = fit["model"]["formula"] if fit["recommended"] == "PMNF" and fit["model"] else fit["recommended"]
loo = fit["recommended_loo_error"]
print(f"{name:9} measured T(16) {measured:.3f} s  predicted from 1-8 {predicted:.3f} s  "
      f"error {100 * (predicted - measured) / measured:+.1f}%  chosen {model} (LOO {100 * loo:.1f}%)  "
      f"Amdahl f {fit['amdahl']['serial_fraction']:.3f}")
for w in fit["warnings"]:
    if "extrapolation" not in w:
        print(f"{'':9} warning: {w}")
PY
}

sweep omp -- "$build/bin/omp_serial_fraction"
sweep mpi --np -- "$build/bin/mpi_serial_fraction"
sweep mpi-grow --np -- "$build/bin/mpi_serial_fraction" 150 1200 20
for name in omp mpi mpi-grow; do report "$name"; done
