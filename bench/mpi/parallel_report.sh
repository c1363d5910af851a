#!/usr/bin/env bash
# The trace analysis by parts (`parperf report --np K`, docs/efficiency-model.md "The whole analysis by
# parts") against the serial report of the same traced run: wall seconds and the largest process's
# peak memory, by turns (serial, --np K for each K, serial, ...), the median of N rounds, and the
# ratio to the serial report. Also checks that every report printed the serial one, byte for byte.
# Needs a Release build in build/ and a traced run (`parperf run --np 8 --trace -o DIR -- ...`).
# Usage: bench/mpi/parallel_report.sh DIR [N=5] [K ...=2 4]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: bench/mpi/parallel_report.sh DIR [N=5] [K ...]}
runs=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2 4)
parperf=build/bin/parperf
[ -x "$parperf" ] || { echo "bench/mpi/parallel_report.sh: $parperf is missing; build first" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
python3 - "$parperf" "$dir" "$runs" "${counts[@]}" <<'EOF'
import os, resource, statistics, subprocess, sys, time
parperf, directory, runs, counts = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(k) for k in sys.argv[4:]]

def once(extra):
    # Each run in a child of its own, so that its peak is its own process tree's largest process.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        start = time.monotonic()
        out = subprocess.run([parperf, "report", "--json", *extra, directory], capture_output=True)
        wall = time.monotonic() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        os.write(w, repr((wall, peak, out.returncode, out.stdout)).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 1 << 20):
        data += chunk
    os.waitpid(pid, 0)
    return eval(data.decode())

configs = [[]] + [["--np", str(k)] for k in counts]
results = {i: [] for i in range(len(configs))}
reference = None
for _ in range(runs):
    for i, extra in enumerate(configs):
        wall, peak, code, out = once(extra)
        if code != 0:
            sys.exit(f"parperf report {' '.join(extra)} failed with status {code}")
        if reference is None:
            reference = out
        elif out != reference:
            sys.exit(f"parperf report {' '.join(extra)} printed another report than the serial one")
        results[i].append((wall, peak))
serial = statistics.median(w for w, _ in results[0])
print(f"{directory}: parperf report --json, median of {runs} rounds by turns; every report the serial one")
for i, extra in enumerate(configs):
    wall = statistics.median(w for w, _ in results[i])
    peak = statistics.median(p for _, p in results[i]) / 1024
    name = "serial" if not extra else " ".join(extra)
    print(f"  {name:10s} {wall:7.3f} s  (x{wall / serial:.2f})   largest process {peak:7.1f} MB")
EOF
