# shellcheck shell=bash
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

# A snapshot for others_busy_since: the CPU seconds every program has used since boot (/proc/stat),
# those of this script and its finished children (/proc/$$/stat: utime, stime, cutime, cstime) and
# the time.
busy_snapshot() {
  local own
  own=$(sed 's/.*) //' "/proc/$$/stat" | awk '{ print $12 + $13 + $14 + $15 }')  # fields 14-17
  awk -v tick="$(getconf CLK_TCK)" -v own="$own" -v now="$(date +%s.%N)" '
    $1 == "cpu" { busy = $2 + $3 + $4 + $7 + $8 + $9 }
    END { printf "%.3f %.3f %.3f", busy / tick, own / tick, now }' /proc/stat
}

# How many cores other programs kept busy, on average, since the snapshot "$1" (busy_snapshot):
# the machine's busy time less this script's own programs', over the wall time. Near 0 means the
# figures are the programs' own; a few tenths and more mean other load was counted as overhead.
others_busy_since() {
  local now
  now=$(busy_snapshot)
  awk -v a="$1" -v b="$now" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    others = ((y[1] - x[1]) - (y[2] - x[2])) / (y[3] - x[3])
    printf "%.2f", others < 0 ? 0 : others
  }'
}
