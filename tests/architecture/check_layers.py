#!/usr/bin/env python3
"""The layers of parperf, checked (docs/architecture.md).

Reads every source file under src/ and include/ for its #include lines, and every CMakeLists.txt
under src/ for the sources and project libraries of each target, and fails on any dependency the
rules below forbid, naming the file, the line and the rule. The core runtime must also not name any
particular collector's world (OpenMP, MPI, ...): the next collector must plug in without touching it.

Usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

# What each layer may depend on, besides itself. A collector is src/runtime/<name>/ (its own
# library); the core is the files directly in src/runtime/.
ALLOWED = {
    "api": set(),  # include/parperf: the public C, C++ and Fortran API
    "format": set(),  # the on-disk formats, shared by writers and readers
    "core": {"format", "api"},  # libparperf.so's measurement core
    "collector": {"core", "format", "api"},  # one folder per data source; never another collector
    "import": {"format"},  # importers of other tools' traces: producers, like the collectors
    "analysis": {"format"},  # pure functions of the loaded run: never the runtime, never a report
    "report": {"analysis", "format"},  # renders analysis results: never the runtime
    "export": {"analysis", "format"},  # timeline exports (Perfetto, Chrome JSON, OTF2, CSV) of merged traces
    "cli": {"report", "analysis", "format", "import", "api", "export"},  # the `parperf` command
}
WHY = {
    "analysis": "the analysis depends only on src/format (it reads files; it never links the runtime)",
    "format": "src/format depends on nothing of parperf (runtime and analysis both build on it)",
    "core": "the core knows no collector: a collector calls the core's API (collector_api.h)",
    "collector": "a collector depends on the core's API and the format only, never on another collector",
    "report": "reports render analysis results; they never reach into the runtime",
    "import": "importers produce traces in the format; they know no analysis",
    "export": "exports write the merged timeline for other tools: they read analysis results, never a report "
              "or the runtime",
    "cli": "the command runs programs and reads files; it never links the in-process runtime",
    "api": "the public headers stand alone",
}
# Report pages are assembled in src/report only: the command computes the page's inputs and hands them
# to a page renderer through these headers, never to the page's parts (its data, sections, assets).
PAGE_ENTRY_POINTS = {"src/report/html/report_html_page.hpp", "src/report/html/html_page_inputs.hpp",
                     "src/report/html/diff_page.hpp"}
WHY_PAGES = ("src/cli does not assemble report pages: it hands computed results to a page renderer "
             "(report/html/report_html_page.hpp, diff_page.hpp)")
# The page renderers render only: they read no file and write none (the command writes the page).
RENDERER_FILE_ACCESS = re.compile(r"^\s*#\s*include\s*<(fstream|filesystem|cstdio|stdio\.h|unistd\.h)>")
WHY_RENDERERS = "src/report renders only: the page renderers read and write no file (the command does)"
# The core must not name a particular collector's world, in code or comments.
CORE_FORBIDDEN_WORDS = re.compile(r"(?i)(?<![a-z])(openmp|ompt|omp|pmpi|mpi|pmix|open-pal|open-rte|oshmem|shmem)(?![a-z])")

SOURCE = re.compile(r"\.(c|cc|cpp|h|hpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(path):
    """(layer, unit) of a path relative to the source dir; unit names the collector."""
    if path.startswith("include/"):
        return ("api", "")
    parts = path.split("/")
    if parts[0] != "src" or len(parts) < 3:
        return (None, "")
    top = parts[1]
    if top == "runtime":
        if len(parts) > 3:
            return ("collector", parts[2])
        return ("core", "")
    return (top, "")


def allowed(source, target):
    (a, unit_a), (b, unit_b) = source, target
    if a is None or b is None or a == b and unit_a == unit_b:
        return True
    if a == b == "collector":
        return False
    return b in ALLOWED.get(a, set())


def resolve(include, including_dir, root):
    for candidate in (os.path.join("src", include), os.path.join("include", include),
                      os.path.normpath(os.path.join(including_dir, include))):
        if os.path.exists(os.path.join(root, candidate)):
            return candidate
    return None


def check_includes(root, problems):
    for top in ("src", "include"):
        for directory, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not SOURCE.search(name):
                    continue
                path = os.path.relpath(os.path.join(directory, name), root)
                source = layer_of(path)
                with open(os.path.join(root, path), errors="replace") as text:
                    for number, line in enumerate(text, 1):
                        if source[0] == "core" and CORE_FORBIDDEN_WORDS.search(line):
                            word = CORE_FORBIDDEN_WORDS.search(line).group(1)
                            problems.append(f"{path}:{number}: the core names '{word}': {WHY['core']}")
                        if path.startswith("src/report/html/") and RENDERER_FILE_ACCESS.match(line):
                            header = RENDERER_FILE_ACCESS.match(line).group(1)
                            problems.append(f"{path}:{number}: includes <{header}>: {WHY_RENDERERS}")
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target_path = resolve(m.group(1), os.path.dirname(path), root)
                        if target_path and not allowed(source, layer_of(target_path)):
                            problems.append(f"{path}:{number}: includes {m.group(1)}: {WHY[source[0]]}")
                        elif (source[0] == "cli" and target_path and target_path.startswith("src/report/html/")
                              and target_path not in PAGE_ENTRY_POINTS):
                            problems.append(f"{path}:{number}: includes {m.group(1)}: {WHY_PAGES}")


def cmake_commands(text, command):
    """The argument lists of every `command(...)` call (no nested parentheses in ours)."""
    text = re.sub(r"#[^\n]*", "", text)
    for m in re.finditer(command + r"\s*\(([^)]*)\)", text):
        yield m.group(1).split()


def check_targets(root, problems):
    targets = {}  # name -> (layer, unit, CMakeLists path, sources, linked names)
    for directory, _, files in os.walk(os.path.join(root, "src")):
        if "CMakeLists.txt" not in files:
            continue
        lists = os.path.relpath(os.path.join(directory, "CMakeLists.txt"), root)
        text = open(os.path.join(root, lists)).read()
        here = layer_of(os.path.join(os.path.dirname(lists), "x.cpp"))
        for args in cmake_commands(text, r"\badd_(?:library|executable)"):
            name, sources = args[0], [s for s in args[1:] if SOURCE.search(s)]
            targets[name] = [here, lists, sources, []]
        for args in cmake_commands(text, r"\btarget_link_libraries"):
            if args and args[0] in targets:
                targets[args[0]][3] += [a for a in args[1:] if a not in ("PUBLIC", "PRIVATE", "INTERFACE")]
    for name, (here, lists, sources, links) in targets.items():
        if name in PACKAGES:
            continue
        for source in sources:
            source = source.replace("${PROJECT_SOURCE_DIR}/", "")
            if "${" in source:
                continue  # generated sources
            path = source if source.startswith("src/") else os.path.normpath(os.path.join(os.path.dirname(lists), source))
            if not allowed(here, layer_of(path)):
                problems.append(f"{lists}: target {name} compiles {path}: {WHY[here[0]]}")
        for link in links:
            if link in targets and not allowed(here, targets[link][0]):
                problems.append(f"{lists}: target {name} links {link}: {WHY[here[0]]}")


# Shared libraries that package layers together, and why. Their own links are not layer
# dependencies; what they package is checked target by target.
PACKAGES = {
    "parperf": "libparperf.so packages the core with the OpenMP collector: an OpenMP runtime finds its "
               "tool only through ompt_start_tool in a loaded library",
}


def main():
    root = sys.argv[1]
    problems = []
    check_includes(root, problems)
    check_targets(root, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} dependencies break the layering (docs/architecture.md)")
        return 1
    print("the layering holds: " + "; ".join(f"{k} -> {', '.join(sorted(v)) or 'nothing'}" for k, v in ALLOWED.items())
          + "; cli -> report/html only through " + ", ".join(sorted(PAGE_ENTRY_POINTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
