#!/usr/bin/env python3
"""check_layers.py must fail on each kind of forbidden dependency: a miniature tree with one
violation per rule, and a clean one that must pass."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")

CLEAN = {
    "src/format/records.hpp": "#pragma once\n",
    "src/runtime/clock.cpp": '#include "format/records.hpp"\n',
    "src/runtime/openmp/tool.cpp": '#include "runtime/clock.hpp"\n',
    "src/runtime/clock.hpp": "#pragma once\n",
    "src/analysis/tree.cpp": '#include "format/records.hpp"\n',
    "src/report/text.cpp": '#include "analysis/tree.hpp"\n',
    "src/analysis/tree.hpp": "#pragma once\n",
    "src/cli/main.cpp": '#include "report/text.hpp"\n',
    "src/report/text.hpp": "#pragma once\n",
    "src/export/csv.cpp": '#include "analysis/tree.hpp"\n',
    "src/export/csv.hpp": "#pragma once\n",
    "src/cli/export.cpp": '#include "export/csv.hpp"\n',
    "src/report/html/report_html_page.hpp": "#pragma once\n",
    "src/report/html/page_data.hpp": "#pragma once\n",
    "src/report/html/report_html_page.cpp": '#include "report/html/page_data.hpp"\n#include <string>\n',
    "src/cli/html_report.cpp": '#include "report/html/report_html_page.hpp"\n#include <fstream>\n',
}

# Each violation: the file added to the clean tree, and the words the checker must print.
VIOLATIONS = [
    ("src/analysis/bad.cpp", '#include "runtime/clock.hpp"\n', "src/analysis/bad.cpp:1: includes runtime/clock.hpp"),
    ("src/format/bad.cpp", '#include "analysis/tree.hpp"\n', "src/format/bad.cpp:1: includes analysis/tree.hpp"),
    ("src/report/bad.cpp", '#include "runtime/clock.hpp"\n', "src/report/bad.cpp:1: includes runtime/clock.hpp"),
    ("src/runtime/bad.cpp", '#include "runtime/openmp/tool.hpp"\n', "src/runtime/bad.cpp:1: includes runtime/openmp/tool.hpp"),
    ("src/runtime/mpi/bad.cpp", '#include "runtime/openmp/tool.hpp"\n', "src/runtime/mpi/bad.cpp:1: includes"),
    ("src/runtime/named.cpp", "// waits in MPI_Barrier\n", "src/runtime/named.cpp:1: the core names 'MPI'"),
    ("src/export/bad.cpp", '#include "report/text.hpp"\n', "src/export/bad.cpp:1: includes report/text.hpp"),
    ("src/analysis/exports.cpp", '#include "export/csv.hpp"\n', "src/analysis/exports.cpp:1: includes export/csv.hpp"),
    ("src/cli/bad.cpp", '#include "runtime/clock.hpp"\n', "src/cli/bad.cpp:1: includes runtime/clock.hpp"),
    ("src/cli/page.cpp", '#include "report/html/page_data.hpp"\n',
     "src/cli/page.cpp:1: includes report/html/page_data.hpp: src/cli does not assemble report pages"),
    ("src/report/html/writer.cpp", '#include <fstream>\n',
     "src/report/html/writer.cpp:1: includes <fstream>: src/report renders only"),
    ("src/runtime/CMakeLists.txt", "add_library(core OBJECT clock.cpp openmp/tool.cpp)\n",
     "target core compiles src/runtime/openmp/tool.cpp"),
]


def run(tree):
    with tempfile.TemporaryDirectory() as root:
        for path, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        # Headers the violations include, so that they resolve.
        os.makedirs(os.path.join(root, "src/runtime/openmp"), exist_ok=True)
        open(os.path.join(root, "src/runtime/openmp/tool.hpp"), "w").close()
        return subprocess.run([sys.executable, "-B", CHECKER, root], capture_output=True, text=True)


def main():
    failures = []
    clean = run(CLEAN)
    if clean.returncode != 0:
        failures.append("a tree that keeps every rule was refused:\n" + clean.stdout)
    for path, text, expected in VIOLATIONS:
        result = run({**CLEAN, path: text})
        if result.returncode == 0 or expected not in result.stdout:
            failures.append(f"{path} ({text.strip()}) was not reported as '{expected}':\n{result.stdout}")
    for failure in failures:
        print(failure)
    print(f"{len(VIOLATIONS) - len(failures) + (clean.returncode == 0)} of {len(VIOLATIONS) + 1} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
