#!/usr/bin/env python3
"""Writes the OpenSHMEM wrappers of libparperf-shmem.so from the rules in shmem_functions.py.

    generate_wrappers.py <output directory> <pshmem.h> <pshmemx.h> <liboshmem.so>

For every `pshmem_X` prototype the two headers declare, the wrapper of its public name `shmem_X`
(the library's weak alias of `pshmem_X`) is written into shmem_wrappers.cpp with the header's own
signature, so a signature can never differ from the library's (the compiler sees both: shmem.h
declares `shmem_X` too). A function is skipped when the library does not export both names (shmem.h
declares a `shmem_broadcast` that Open MPI 4.1 does not define). Every wrapper follows the pattern at
the top of measure.hpp; how a finish (FINISHES below) turns the arguments into bytes and a partner PE
is the only difference between them.

The generator fails, naming the function, when no rule matches a declared function, when a rule
names an unknown finish or kind, or when a function lacks the arguments its finish reads.
"""

import re
import subprocess
import sys
from pathlib import Path

import shmem_functions

OUTPUT = "shmem_wrappers.cpp"

KINDS = {"shmem_put", "shmem_get", "shmem_put_nbi", "shmem_get_nbi", "shmem_atomic", "shmem_barrier",
         "shmem_broadcast", "shmem_reduction", "shmem_all_to_all", "shmem_gather_scatter",
         "shmem_memory_sync", "shmem_lock", "shmem_point_sync", "shmem_management"}


class TableError(Exception):
    pass


DECLARATION = re.compile(r"^\s*OSHMEM_DECLSPEC\s+(.*?)\b(p\w+)\s*\((.*)\)\s*;\s*$")


def read_prototypes(headers):
    """(return type, p-name, [(type, name)]) of every declaration, in header order."""
    prototypes = []
    for header in headers:
        for line in Path(header).read_text().splitlines():
            match = DECLARATION.match(line)
            if not match:
                continue
            ret = " ".join(match.group(1).split())
            name = match.group(2)
            params = []
            text = match.group(3).strip()
            if text and text != "void":
                for part in text.split(","):
                    p = re.fullmatch(r"\s*(.*?)\s*\b(\w+)\s*", part)
                    if not p or not p.group(1):
                        raise TableError(f"{name}: cannot read the parameter '{part.strip()}'")
                    params.append((" ".join(p.group(1).split()), p.group(2)))
            prototypes.append((ret, name, params))
    return prototypes


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                         text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 3}


def short_name(public):
    """shmem_ctx_int_put -> int_put; shmemx_int32_fadd -> int32_fadd; shmalloc -> shmalloc."""
    name = re.sub(r"^shmemx?_", "", public)
    return re.sub(r"^ctx_", "", name)


def rule_of(public):
    name = short_name(public)
    for pattern, kind, finish in shmem_functions.RULES:
        if re.fullmatch(pattern, name):
            return kind, finish
    raise TableError(f"{public}: no rule of shmem_functions.py matches '{name}'")


def pointee(ctype):
    """The element type a pointer parameter points to, without qualifiers ('void' for void*)."""
    base = ctype.replace("const", " ").replace("volatile", " ").strip()
    if not base.endswith("*"):
        return None
    return " ".join(base[:-1].split())


def element_size(public, params, ret):
    """The size of one element in C++: from the sized name (put32: 4), mem (1), else the pointee."""
    name = short_name(public)
    sized = re.search(r"(?:put|get|broadcast|collect|alltoalls?)(8|16|32|64|128)(?:_nbi)?$", name)
    if sized:
        return str(int(sized.group(1)) // 8)
    if re.search(r"(put|get)mem", name):
        return "1"
    if name.endswith("_p"):
        return f"sizeof({params[-2][1]})"  # the value
    if name.endswith("_g"):
        return f"sizeof({ret})"
    for ctype, pname in params:
        element = pointee(ctype)
        if element and element != "shmem_ctx_t" and element != "void":
            return f"sizeof({element})"
    raise TableError(f"{public}: cannot tell the size of its elements")


def param_named(public, params, *names):
    for ctype, pname in params:
        if pname in names:
            return pname
    raise TableError(f"{public}: has no parameter named {' or '.join(names)}")


def element_count(public, params):
    """The element count of a transfer: the first size_t or int after the two buffers (past strides)."""
    data = [p for p in params if p[0] != "shmem_ctx_t"]
    for ctype, pname in data[2:]:
        if ctype in ("size_t", "int"):
            return pname
    raise TableError(f"{public}: has no element count")


def finish_rma(operation):
    def finish(public, ret, params):
        name = short_name(public)
        pe = param_named(public, params, "pe")
        size = element_size(public, params, ret)
        count = "1" if name.endswith(("_p", "_g")) else f"static_cast<std::uint64_t>({element_count(public, params)})"
        return f"finish_rma(call, format::OneSidedOperation::{operation}, {count} * {size}, {pe});"
    return finish


def finish_atomic(public, ret, params):
    pe = param_named(public, params, "pe")
    return f"finish_rma(call, format::OneSidedOperation::atomic, {element_size(public, params, ret)}, {pe});"


def active_set(public, params):
    """The call's active set as a trace operation's match (format/shmem_active_set.hpp)."""
    start = param_named(public, params, "PE_start")
    stride = param_named(public, params, "logPE_stride")
    size = param_named(public, params, "PE_size")
    return f"format::shmem_active_set_match({start}, {stride}, {size})"


def finish_collective_bytes(per_pe):
    def finish(public, ret, params):
        count = element_count(public, params)
        size = element_size(public, params, ret)
        bytes_ = f"static_cast<std::uint64_t>({count}) * {size}"
        if per_pe:
            bytes_ += f" * static_cast<std::uint64_t>({param_named(public, params, 'PE_size')})"
        return f"finish_collective(call, {bytes_}, -1, {active_set(public, params)});"
    return finish


def finish_broadcast(public, ret, params):
    count = element_count(public, params)
    root = param_named(public, params, "PE_root")
    start = param_named(public, params, "PE_start")
    stride = param_named(public, params, "logPE_stride")
    return (f"finish_collective(call, static_cast<std::uint64_t>({count}) * {element_size(public, params, ret)}, "
            f"{start} + ({root} << {stride}), {active_set(public, params)});")


FINISHES = {
    "plain": lambda public, ret, params: "finish_plain(call);",
    "waiting": lambda public, ret, params: "finish_waiting(call);",
    "set_waiting": lambda public, ret, params: f"finish_waiting(call, {active_set(public, params)});",
    # A lock call names its lock (its only argument); test_lock took it when it returned 0.
    "set_lock": lambda public, ret, params:
        f"finish_lock(call, {params[0][1]}, parperf::shmem::LockStep::wait_for_it, true);",
    "test_lock": lambda public, ret, params:
        f"finish_lock(call, {params[0][1]}, parperf::shmem::LockStep::try_it, result == 0);",
    "clear_lock": lambda public, ret, params:
        f"finish_lock(call, {params[0][1]}, parperf::shmem::LockStep::release, false);",
    "put": finish_rma("put"),
    "get": finish_rma("get"),
    "atomic": finish_atomic,
    "broadcast": finish_broadcast,
    "collect": finish_collective_bytes(False),
    "alltoall": finish_collective_bytes(True),
    "reduce": finish_collective_bytes(False),
}

# What happens around the call of the p-function besides begin() and the finish.
LIFECYCLE = {"init", "finalize", "global_exit"}


def wrapper(ret, pname, params, kind, finish):
    public = pname[1:]
    decl = ", ".join(f"{t} {n}" for t, n in params) or "void"
    args = ", ".join(n for _, n in params)
    returns = ret != "void"
    call_p = f"{pname}({args})"
    lines = [f'extern "C" PARPERF_SHMEM_EXPORT {ret} {public}({decl}) {{',
             "  parperf::shmem::Call call;"]
    begin = (f'parperf::shmem::begin(call, "{public}", format::SiteKind::{kind}, '
             f"__builtin_return_address(0))")
    if finish == "init":
        lines += [f"  const bool measured = {begin};", "  parperf::shmem::before_init();"]
        lines += [f"  {'const auto result = ' if returns else ''}{call_p};",
                  "  parperf::shmem::after_init();",
                  "  if (measured) parperf::shmem::finish_plain(call);", "  parperf::shmem::after_setup();"]
        if returns:
            lines += ["  return result;"]
        lines += ["}"]
        return "\n".join(lines)
    if finish == "finalize":
        lines += [f"  const bool measured = {begin};",
                  "  parperf::shmem::before_finalize();",
                  f"  {call_p};", "  if (measured) parperf::shmem::finish_plain(call);",
                  "  parperf::shmem::after_setup();", "}"]
        return "\n".join(lines)
    if finish == "global_exit":
        status = params[0][1]
        lines += [f"  if ({begin}) parperf::shmem::finish_plain(call);",
                  f"  parperf::shmem::before_global_exit({status});",
                  f"  {call_p};", "}"]
        return "\n".join(lines)
    if finish not in FINISHES:
        raise TableError(f"{public}: unknown finish '{finish}'")
    body = FINISHES[finish](public, ret, params)
    lines += [f"  if (!{begin}) return {call_p};"]
    if returns:
        lines += [f"  const auto result = {call_p};", f"  parperf::shmem::{body}", "  return result;"]
    else:
        lines += [f"  {call_p};", f"  parperf::shmem::{body}"]
    lines += ["}"]
    return "\n".join(lines)


HEAD = """// Generated by generate_wrappers.py from shmem_functions.py and {headers}: do not edit.
#include <pshmem.h>
#include <pshmemx.h>
#include <shmem.h>
#include <shmemx.h>

#include <cstdint>

#include "format/records.hpp"
#include "format/shmem_active_set.hpp"
#include "runtime/shmem/measure.hpp"

#define PARPERF_SHMEM_EXPORT __attribute__((visibility("default")))

using namespace parperf;

"""


def wrappers_text(headers, exported):
    """The generated file's text: the wrappers of the functions of `headers` that `exported` holds."""
    wrappers = []
    skipped = []
    seen = set()
    for ret, pname, params in read_prototypes(headers):
        public = pname[1:]
        if pname in seen:
            continue
        seen.add(pname)
        kind, finish = rule_of(public)
        if finish is None:
            continue
        if kind not in KINDS:
            raise TableError(f"{public}: unknown kind '{kind}'")
        if pname not in exported or public not in exported:
            skipped.append(public)
            continue
        wrappers.append(wrapper(ret, pname, params, kind, finish))
    text = HEAD.format(headers=", ".join(Path(h).name for h in headers))
    if skipped:
        text += "// Declared but not exported by the library, so not wrapped: " + ", ".join(skipped) + "\n\n"
    return text + "\n\n".join(wrappers) + "\n"


def generate(output_directory, headers, library):
    text = wrappers_text(headers, exported_symbols(library))
    out = Path(output_directory) / OUTPUT
    if not out.exists() or out.read_text() != text:
        out.write_text(text)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    try:
        generate(sys.argv[1], sys.argv[2:4], sys.argv[4])
    except TableError as error:
        sys.exit(f"generate_wrappers.py: {error}")


if __name__ == "__main__":
    main()
