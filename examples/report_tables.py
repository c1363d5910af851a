#!/usr/bin/env python3
"""Reading the tables of `parperf report --csv DIR` with pandas (docs/report.md, "Tables for notebooks").

Usage: python3 report_tables.py DIR
"""
import sys

import pandas as pd

tables = sys.argv[1]

# intervals.csv: one row per interval x processor x figure. Processor "all" holds the interval's
# characteristics over its processors; a pivot gives one row per interval, one column per figure.
intervals = pd.read_csv(f"{tables}/intervals.csv")
overall = intervals[intervals.processor == "all"].pivot_table(index="interval", columns="figure", values="value")
print(overall[["execution_time", "efficiency", "lost_time"]].sort_values("execution_time", ascending=False))

# Each processor's productive time per interval: the load balance at a glance.
productive = intervals[(intervals.processor != "all") & (intervals.figure == "productive_time")]
print(productive.pivot_table(index="interval", columns="processor", values="value"))

# The findings, worst first, and the POP efficiency factors of the whole run.
findings = pd.read_csv(f"{tables}/findings.csv")
print(findings[["rule", "share", "interval"]])
pop = pd.read_csv(f"{tables}/pop.csv")
print(pop[pop.phase.isna() & (pop.part == "overall")].set_index("factor")["value"])
