# Shell functions the overhead scripts share (bench/openmp/overhead.sh, bench/mpi/overhead.sh).
# Source it; it defines functions only.

# The median of the numbers given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# The share of the CPUs (%) busy during one second, from /proc/stat: before the runs it is other
# programs' load, which the figures cannot tell from overhead.
busy_percent() {
  local a b
  a=$(head -1 /proc/stat)
  sleep 1
  b=$(head -1 /proc/stat)
  awk -v a="$a" -v b="$b" 'BEGIN {
    n = split(a, x); split(b, y)
    for (i = 2; i <= n; i++) { total += y[i] - x[i]; if (i == 5 || i == 6) idle += y[i] - x[i] }
    printf "%d", (total > 0) ? 100 * (total - idle) / total : 0
  }'
}
