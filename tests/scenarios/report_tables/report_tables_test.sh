#!/usr/bin/env bash
# `parperf report --csv DIR` read by pandas (Debian's python3-pandas, run by /usr/bin/python3): the
# annotated C program of api_languages measured, its tables written, then the example
# examples/report_tables.py run on them, and the tables' shapes checked: numeric values, the
# program's intervals as paths, a row per processor.
# Usage: report_tables_test.sh PARPERF PROGRAM SOURCE_DIR
set -euo pipefail
# shellcheck source=../../support/script_test.sh
source "$(dirname "$0")/../../support/script_test.sh"
script_test_begin "report tables"
parperf=$1 program=$2 source=$3
python=/usr/bin/python3  # Debian's, with python3-pandas (scripts/install-deps.sh)
"$python" -c 'import pandas' 2>/dev/null || fail "$python has no pandas: scripts/install-deps.sh installs python3-pandas"
"$parperf" run -q -o "$work/run" -- "$program" >/dev/null
"$parperf" report --csv "$work/tables" "$work/run" >/dev/null

example=$("$python" "$source/examples/report_tables.py" "$work/tables" 2>&1) || fail "examples/report_tables.py failed: $example"
for interval in program/compute program/compute/rows program/named_phase; do
  grep -qE "^$interval +[0-9.e-]+ +[0-9.e-]+" <<<"$example" ||
    fail "examples/report_tables.py shows no execution time and efficiency of $interval: $example"
done

"$python" - "$work/tables" <<'PY' || fail "the tables are not the long form that docs/report.md describes"
import sys
import pandas as pd
tables = sys.argv[1]
expected = {
    "intervals.csv": ["interval", "kind", "name", "file", "line", "interval_value", "level", "processor", "figure", "value"],
    "src_points.csv": ["src_point", "name", "kind", "file", "line", "function", "interval", "figure", "value"],
    "findings.csv": ["finding", "rule", "share", "estimated_gain", "interval", "file", "line", "text"],
    "pop.csv": ["source", "phase", "part", "factor", "value"],
}
for name, columns in expected.items():
    table = pd.read_csv(f"{tables}/{name}")
    assert list(table.columns) == columns, f"{name} has columns {list(table.columns)}, expected {columns}"
intervals = pd.read_csv(f"{tables}/intervals.csv")
assert intervals["value"].dtype == float, f"intervals.csv values are {intervals['value'].dtype}, not numbers"
# Single process, one thread: processor "all" and processor 0, with the same execution time.
assert set(intervals.processor) == {"all", "0"}, f"processors {set(intervals.processor)}, expected all and 0"
rows = intervals[(intervals.interval == "program/compute") & (intervals.figure == "execution_time")]
assert len(rows) == 2 and rows.value.nunique() == 1, f"program/compute's execution time rows: {rows}"
# One row per (interval, processor, figure): a tidy table has no repeated observation.
assert not intervals.duplicated(["interval", "processor", "figure"]).any(), "repeated interval x processor x figure rows"
pop = pd.read_csv(f"{tables}/pop.csv")
factors = pop[pop.part == "overall"].set_index("factor")["value"]
assert abs(factors["parallel_efficiency"] - 1) < 1e-9, f"a one-thread run's parallel efficiency is {factors['parallel_efficiency']}"
PY
echo "report tables: pandas reads the four tables and the example runs"
