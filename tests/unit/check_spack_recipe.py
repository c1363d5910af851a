#!/usr/bin/env python3
"""The Spack recipe (packaging/spack/package.py) in step with the CMake build.

Parses the recipe with Python's own parser (Spack itself is not needed) and fails, naming the
difference, when its newest version() is not the version of CMake's project(), or when cmake_args()
defines a variable that the CMake build does not declare (an option() or a cache variable set by
find_path / find_library / set(... CACHE)).

Usage: check_spack_recipe.py SOURCE_DIR
"""
import ast
import pathlib
import re
import sys


def fail(message):
    sys.exit(f"Spack recipe: {message}")


def main():
    source = pathlib.Path(sys.argv[1])
    recipe = source / "packaging" / "spack" / "package.py"
    tree = ast.parse(recipe.read_text(), str(recipe))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))]

    def name_of(call):
        return call.func.id if isinstance(call.func, ast.Name) else call.func.attr

    versions = [call.args[0].value for call in calls if name_of(call) == "version" and call.args]
    cmake = (source / "CMakeLists.txt").read_text()
    project = re.search(r"project\(\s*parperf\s+VERSION\s+([0-9.]+)", cmake)
    if not project:
        fail("no project(parperf VERSION ...) in CMakeLists.txt")
    if not versions or versions[0] != project.group(1):
        fail(f"its newest version is {versions[:1]}, the CMake project's is {project.group(1)}: "
             "add version(\"" + project.group(1) + "\", ...) first in package.py")

    declared = set()
    for lists in [source / "CMakeLists.txt", *source.glob("src/**/CMakeLists.txt"), *source.glob("cmake/*.cmake")]:
        text = lists.read_text()
        declared.update(re.findall(r"option\(\s*(\w+)", text))
        declared.update(re.findall(r"find_(?:path|library|program)\(\s*(\w+)", text))
        declared.update(re.findall(r"set\(\s*(\w+)\s+[^)]*\bCACHE\b", text))
    defined = [call.args[0].value for call in calls if name_of(call) == "define" and call.args
               and isinstance(call.args[0], ast.Constant)]
    if not defined:
        fail("cmake_args() defines no CMake variable: is it still written with self.define(...)?")
    for variable in defined:
        if variable not in declared:
            fail(f"cmake_args() sets {variable}, which the CMake build does not declare (renamed or removed?)")
    print(f"Spack recipe: version {versions[0]}, {len(defined)} CMake variables, all declared")


main()
