#!/usr/bin/env python3
"""Writes the MPI wrappers of libparperf-mpi.so from the table in mpi_functions.py.

    generate_wrappers.py <output directory>

writes mpi_c_wrappers.cpp (MPI_X, forwarding to PMPI_X) and mpi_fortran_wrappers.cpp (the Fortran
entry points of Open MPI: mpi_x_, mpi_x__, mpi_x, MPI_X and mpi_x_f08_, forwarding to pmpi_x_ and
pmpi_x_f08_). Every wrapper follows the pattern at the top of measure.hpp; what differs between
them is how a finish kind (FINISHES below) turns the call's arguments into the finish_*() call.

The generator fails, naming the function, on anything in the table it does not understand: an
unknown finish kind or collective_bytes function, a wrong number of arguments, an argument that
is neither a parameter of the signature nor a known literal, or one whose type does not fit. The
C compiler checks the rest: mpi.h declares every MPI_X, so a signature that differs from it is a
conflicting declaration.
"""

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import mpi_functions

C_OUTPUT = "mpi_c_wrappers.cpp"
FORTRAN_OUTPUT = "mpi_fortran_wrappers.cpp"


class TableError(Exception):
    pass


# --- Signatures ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    type: str  # as declared, without the array brackets: "const int", "MPI_Status*"
    name: str
    array: bool  # declared `name[]`

    @property
    def decl(self):
        return f"{self.type} {self.name}[]" if self.array else f"{self.type} {self.name}"

    @property
    def value_type(self):
        """The type the function receives (an array parameter is a pointer)."""
        return self.type + "*" if self.array else self.type


VARIADIC = "..."


def is_variadic(function):
    """MPI_Pcontrol(int level, ...): the C wrapper takes the extra arguments and passes none on."""
    return function.params.rstrip().endswith(VARIADIC)


def parse_params(function):
    if function.params.strip() == "void":
        return []
    params = []
    texts = function.params.split(",")
    if is_variadic(function):
        if texts[-1].strip() != VARIADIC or len(texts) < 2:
            raise TableError(f"{function.name}: '...' must follow the named parameters")
        texts = texts[:-1]
    for text in texts:
        match = re.fullmatch(r"\s*(.*?)\s*\b(\w+)\s*(\[\])?\s*", text)
        if not match or not match.group(1):
            raise TableError(f"{function.name}: cannot read the parameter '{text.strip()}'")
        ctype = re.sub(r"\s*\*", "*", " ".join(match.group(1).split()))
        params.append(Param(ctype, match.group(2), match.group(3) is not None))
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise TableError(f"{function.name}: a parameter name repeats")
    return params


def fortran_type(param):
    """The C type of a Fortran argument: everything arrives by reference."""
    ctype = param.value_type.replace("const ", "")
    if ctype in ("void*", "char*"):  # a buffer; a CHARACTER (its length comes last, hidden)
        return ctype
    if ctype.rstrip("*") in ("MPI_Aint", "MPI_Offset"):
        return ctype.rstrip("*") + "*"
    return "MPI_Fint*"  # INTEGERs, LOGICALs, handles, status arrays


# --- Argument values -----------------------------------------------------------------------------

# Literals a finish specification may use, and the type each stands for.
LITERALS = {
    "0": "int", "1": "int", "-1": "int", "MPI_ANY_SOURCE": "int", "MPI_ANY_TAG": "int", "MPI_LOCK_SHARED": "int",
    "true": "bool", "false": "bool",
    "MPI_COMM_NULL": "MPI_Comm", "MPI_DATATYPE_NULL": "MPI_Datatype",
    "nullptr": "MPI_Request*",
}

# Open MPI's conversions of Fortran handles, by C handle type.
F2C = {"MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c", "MPI_Win": "PMPI_Win_f2c",
       "MPI_File": "PMPI_File_f2c", "MPI_Request": "PMPI_Request_f2c", "MPI_Group": "PMPI_Group_f2c"}


def fits(param_type, slot):
    """Whether a parameter of param_type can be passed where the finish function takes slot."""
    return param_type == slot or (slot.startswith("const ") and param_type == slot[len("const "):])


@dataclass
class Plan:
    """The lines of one wrapper besides begin() and the PMPI call.

    What reads only the arguments (the bytes of a collective, the request handles before a Wait)
    comes before begin(), which reads the clock last: the measured time is the PMPI call's, unless
    the wrapper does more of the call's work itself (lead_in, follow_up: MPI_Init's and
    MPI_Finalize's clock exchanges, which are part of what those calls cost the program)."""
    prologue: list = field(default_factory=list)  # before begin(), whether measured or not
    lead_in: list = field(default_factory=list)  # after begin(), before the PMPI call, measured or not
    call_args: dict = field(default_factory=dict)  # measured: parameter -> what PMPI gets instead
    always_args: dict = field(default_factory=dict)  # parameter -> what PMPI gets, measured or not
    follow_up: list = field(default_factory=list)  # after the PMPI call, before finish, measured or not
    finish: list = field(default_factory=list)  # measured: after the PMPI call
    epilogue: list = field(default_factory=list)  # after the PMPI call, whether measured or not
    measured: bool = True


class Side:
    """How the arguments of the C or the Fortran binding become the C values finish_*() takes."""

    fortran = False

    def __init__(self, function, params):
        self.function = function
        self.params = {p.name: p for p in params}

    def param(self, name, slot):
        p = self.params.get(name)
        if p is None:
            raise TableError(f"{self.function.name}: '{name}' is not a parameter of its signature")
        if slot is not None and not fits(p.value_type, slot):
            raise TableError(f"{self.function.name}: '{name}' is a {p.value_type}, the finish takes a {slot}")
        return p

    def value(self, token, slot, plan):
        if token in LITERALS:
            if LITERALS[token] != slot:
                raise TableError(f"{self.function.name}: the literal {token} is no {slot}")
            return token
        match = re.fullmatch(r"in_place\((\w+)\)", token)
        if match:
            if slot != "bool":
                raise TableError(f"{self.function.name}: {token} where a {slot} is taken")
            buffer = self.param(match.group(1), None)
            if buffer.value_type not in ("void*", "const void*"):
                raise TableError(f"{self.function.name}: {token} names no buffer")
            return self.in_place(buffer.name)
        return self.convert(self.param(token, slot), slot, plan)

    def values(self, tokens, slots, plan):
        if len(tokens) != len(slots):
            raise TableError(f"{self.function.name}: {len(tokens)} arguments given, {len(slots)} taken")
        return [self.value(t, s, plan) for t, s in zip(tokens, slots)]

    @staticmethod
    def pointee(p):  # an INTEGER or int output (flag, index, outcount), in C and Fortran alike
        return f"*{p.name}"


class CSide(Side):
    def in_place(self, buffer):
        return f"{buffer} == MPI_IN_PLACE"

    def convert(self, p, slot, plan):
        if slot == "MPI_Status*":  # MPI_STATUS_IGNORE: PMPI writes into the wrapper's status
            plan.prologue.append(f"StatusSlot {p.name}_slot({p.name});")
            plan.call_args[p.name] = f"{p.name}_slot.for_mpi()"
            return f"{p.name}_slot.for_finish()"
        if slot == "const MPI_Datatype*":
            return f"collective_bytes::DatatypeList::c({p.name})"
        return p.name

    def handle_of(self, p):  # the C handle a pointer parameter holds
        return f"*{p.name}"


class FortranSide(Side):
    fortran = True

    def in_place(self, buffer):
        return f"fortran::is_in_place({buffer})"

    def convert(self, p, slot, plan):
        base = slot.replace("const ", "").rstrip("*")
        if slot == "MPI_Status*":
            return "nullptr"  # finish_*() then counts count x type and takes the named partner
        if slot == "const MPI_Datatype*":
            return f"collective_bytes::DatatypeList::fortran({p.name})"
        if slot in ("int*", "const int*"):
            return p.name  # MPI_Fint is int (fortran_binding.hpp)
        if slot == "int":
            return f"*{p.name}"
        if slot in F2C:
            return f"{F2C[slot]}(*{p.name})"
        if slot in ("MPI_Request*", "MPI_Comm*"):  # an output handle: its C handle after the call
            plan.finish.append(f"const {base} {p.name}_c = {F2C[base]}(*{p.name});")
            return f"&{p.name}_c"
        raise TableError(f"{self.function.name}: no Fortran conversion for '{p.name}' to {slot}")

    def handle_of(self, p):
        base = p.value_type.rstrip("*")
        return f"{F2C[base]}(*{p.name})"


# --- Finish kinds --------------------------------------------------------------------------------
# Each takes the side, the function's finish specification and the plan to fill.


def simple(finish_name, *slots):
    """finish_<name>(call, arguments...) with the arguments converted as their slots say."""

    def render(side, spec, plan):
        args = side.values(spec.args, slots, plan)
        plan.finish.append(f"finish_{finish_name}({', '.join(['call', *args])});")

    return render, len(slots)


def render_plain(side, spec, plan):
    plan.finish.append("finish_plain(call);")


def render_probe_test(side, spec, plan):
    # Iprobe / Improbe: the status says something only when a message is there.
    source, comm, flag, status = spec.args
    values = side.values((source, comm, status), ("int", "MPI_Comm", "MPI_Status*"), plan)
    flag = side.pointee(side.param(flag, "int*"))
    status_value = "nullptr" if values[2] == "nullptr" else f"{flag} != 0 ? {values[2]} : nullptr"
    plan.finish.append(f"finish_probe(call, {values[0]}, {values[1]}, {status_value});")


def render_window_test(side, spec, plan):
    # MPI_Win_test: the flag says whether it ended the exposure epoch, as a wait would have.
    win, flag = spec.args
    (win_value,) = side.values((win,), ("MPI_Win",), plan)
    flag = side.pointee(side.param(flag, "int*"))
    plan.finish.append(f"finish_window_epoch_end(call, {flag} != 0, false, {win_value});")


def render_start(side, spec, plan):
    count, requests = spec.args
    if not side.fortran:  # the program's array as it is, whatever its length
        return simple("start", "int", "MPI_Request*")[0](side, spec, plan)
    count = side.value(count, "int", plan)
    requests = side.param(requests, "MPI_Request*").name
    plan.prologue.append(f"const RequestSnapshot started({count}, {requests}, fortran_handles);")
    plan.finish.append("finish_start(call, started.count(), started.handles());")


def render_request_free(side, spec, plan):
    (request,) = spec.args
    plan.prologue.append(f"forget_request({side.handle_of(side.param(request, 'MPI_Request*'))});")
    plan.finish.append("finish_plain(call);")


def completion(shape, has_flag):
    """Wait*, Test*: the handles before the call, then finish_wait_<shape>()."""
    slots = {"one": ("MPI_Request*",), "all": ("int", "MPI_Request*"), "any": ("int", "MPI_Request*", "int*"),
             "some": ("int", "MPI_Request*", "int*", "int*")}[shape]
    slots += ("int*",) * has_flag + ("MPI_Status*",)

    def render(side, spec, plan):
        if len(spec.args) != len(slots):
            raise TableError(f"{side.function.name}: {len(spec.args)} arguments given, {len(slots)} taken")
        params = [side.param(token, slot) for token, slot in zip(spec.args, slots)]
        count = "1" if shape == "one" else side.value(spec.args[0], "int", plan)
        requests = params[0 if shape == "one" else 1]
        statuses = params[-1]
        tag = ", fortran_handles" if side.fortran else ""
        plan.prologue.append(f"const RequestSnapshot before({count}, {requests.name}{tag});")
        if side.fortran:
            status_value = "nullptr"
        else:  # the program's statuses, or the wrapper's when it ignores them
            holder = "StatusSlot" if shape in ("one", "any") else "StatusArray"
            size = "" if holder == "StatusSlot" else f"{count}, "
            plan.prologue.append(f"{holder} {statuses.name}_slot({size}{statuses.name});")
            plan.call_args[statuses.name] = f"{statuses.name}_slot.for_mpi()"
            status_value = f"{statuses.name}_slot.for_finish()"
        completed = f"{side.pointee(params[-2])} != 0" if has_flag else "true"
        base = "1" if side.fortran else "0"
        if shape in ("one", "all"):
            args = [completed, status_value]
        elif shape == "any":
            args = [side.pointee(params[2]), base, status_value]
        else:
            args = [side.pointee(params[2]), params[3].name, base, status_value]
        plan.finish.append(f"finish_wait_{shape}({', '.join(['call', 'before', *args])});")

    return render, len(slots)


def render_collective(side, spec, plan):
    comm, root, request = side.values(spec.args, ("MPI_Comm", "int", "MPI_Request*"), plan)
    if not spec.bytes:
        bytes_value = "0"
    else:
        helper, *tokens = spec.bytes
        if helper not in COLLECTIVE_BYTES:
            raise TableError(f"{side.function.name}: collective_bytes has no function '{helper}'")
        args = side.values(tokens, COLLECTIVE_BYTES[helper], plan)
        plan.prologue.append(f"const std::uint64_t bytes = collective_bytes::{helper}({', '.join(args)});")
        bytes_value = "bytes"
    plan.finish.append(f"finish_collective(call, {comm}, {root}, {bytes_value}, {request});")


# MPI_Init and MPI_Finalize are start-up and shut-down, which the analysis keeps out of every
# interval's figures: their measured time includes the clock exchanges the collector adds to them
# (and the waiting for the other ranks there), or that time would count as the program's own.
# The samples taken inside them are start-up's and shut-down's, counted apart (before_init and
# before_finalize to after_setup, which comes last: the call's recording, whose first time does
# one-off work such as naming the caller's module, is not the program's time either).
def render_init(side, spec, plan):
    plan.finish.append("finish_plain(call);")
    plan.lead_in.append("before_init();")
    plan.follow_up.append("after_init(nullptr);")
    plan.epilogue.append("after_setup();")


def render_init_thread(side, spec, plan):
    (provided,) = spec.args
    plan.finish.append("finish_plain(call);")
    plan.lead_in.append("before_init();")
    plan.follow_up.append(f"after_init({side.value(provided, 'int*', plan)});")
    plan.epilogue.append("after_setup();")


def render_finalize(side, spec, plan):
    plan.lead_in.append("before_finalize();")
    plan.epilogue.append("after_setup();")
    plan.finish.append("finish_plain(call);")


def render_control(side, spec, plan):
    # MPI_Pcontrol switches recording; the call itself is no MPI operation to measure.
    (level,) = spec.args
    plan.prologue.append(f"control_profiling({side.value(level, 'int', plan)});")
    plan.measured = False


def render_abort(side, spec, plan):
    # The profile is written before PMPI_Abort kills the job; the call itself is not measured.
    (errorcode,) = spec.args
    plan.prologue.append(f"before_abort({side.value(errorcode, 'int', plan)});")
    plan.measured = False


def after_success(side, plan, lines):
    """Lines run once the call returned, whether measured or not, only when it succeeded."""
    plan.finish.append("finish_plain(call);")
    if side.fortran:
        plan.prologue.append("fortran::ErrorCode error(ierror);")
        plan.always_args["ierror"] = "error.get()"
        plan.epilogue += ["if (error.succeeded()) {", *[f"  {line}" for line in lines], "}"]
    else:
        plan.epilogue += ["if (result == MPI_SUCCESS) {", *[f"  {line}" for line in lines], "}"]


def render_comm_create(side, spec, plan):
    # Registration is collective like the creation itself, so every member registers, whether
    # this call is measured or not; a failed call created nothing.
    (newcomm,) = spec.args
    p = side.param(newcomm, "MPI_Comm*")
    if side.fortran:
        after_success(side, plan, [f"const MPI_Comm created = PMPI_Comm_f2c(*{p.name});",
                                   "after_comm_create(&created);"])
    else:
        after_success(side, plan, [f"after_comm_create({p.name});"])


def render_comm_free(side, spec, plan):
    (comm,) = spec.args
    plan.prologue.append(f"before_comm_free({side.handle_of(side.param(comm, 'MPI_Comm*'))});")
    plan.finish.append("finish_plain(call);")


def render_win_create(side, spec, plan):
    # Like a communicator's creation: every member registers the new window, measured or not.
    comm, newwin = spec.args
    created = side.handle_of(side.param(newwin, "MPI_Win*"))
    after_success(side, plan, [f"after_win_create({side.value(comm, 'MPI_Comm', plan)}, {created});"])


def render_win_free(side, spec, plan):
    (win,) = spec.args
    plan.prologue.append(f"before_win_free({side.handle_of(side.param(win, 'MPI_Win*'))});")
    plan.finish.append("finish_plain(call);")


FINISHES = {
    "plain": (render_plain, 0),
    "send": simple("send", "int", "MPI_Datatype", "int", "int", "MPI_Comm"),
    "recv": simple("recv", "int", "MPI_Datatype", "int", "int", "MPI_Comm", "MPI_Status*"),
    "sendrecv": simple("sendrecv", "int", "MPI_Datatype", "int", "int", "int", "MPI_Datatype", "int", "int",
                       "MPI_Comm", "MPI_Status*"),
    "probe": simple("probe", "int", "MPI_Comm", "MPI_Status*"),
    "probe_test": (render_probe_test, 4),
    "request_start": simple("request_start", "MPI_Request*", "int", "MPI_Datatype", "int", "int", "MPI_Comm",
                            "bool", "bool"),
    "start": (render_start, 2),
    "request_free": (render_request_free, 1),
    "wait": completion("one", False),
    "test": completion("one", True),
    "wait_all": completion("all", False),
    "test_all": completion("all", True),
    "wait_any": completion("any", False),
    "test_any": completion("any", True),
    "wait_some": completion("some", False),
    "test_some": completion("some", False),  # Testsome: outcount says what completed, no flag
    "collective": (render_collective, 3),
    "one_sided": simple("one_sided", "int", "MPI_Datatype", "int", "MPI_Win"),
    "window_fence": simple("window_fence", "int", "MPI_Win"),
    "window_lock": simple("window_lock", "int", "int", "MPI_Win"),
    "window_unlock": simple("window_unlock", "int", "MPI_Win"),
    "window_group": simple("window_group", "MPI_Group", "bool", "MPI_Win"),
    "window_epoch_end": simple("window_epoch_end", "bool", "bool", "MPI_Win"),
    "window_test": (render_window_test, 2),
    "io": simple("io", "int", "MPI_Datatype"),
    "init": (render_init, 0),
    "init_thread": (render_init_thread, 1),
    "finalize": (render_finalize, 0),
    "abort": (render_abort, 1),
    "control": (render_control, 1),
    "comm_create": (render_comm_create, 1),
    "comm_free": (render_comm_free, 1),
    "win_create": (render_win_create, 2),
    "win_free": (render_win_free, 1),
}

# The functions of collective_bytes.hpp and the types they take.
_GATHER = ("bool", "int", "MPI_Datatype", "int", "MPI_Datatype")
_GATHERV = ("bool", "int", "MPI_Datatype", "const int*", "MPI_Datatype")
_W = ("const int*", "const MPI_Datatype*", "const int*", "const MPI_Datatype*", "MPI_Comm")
COLLECTIVE_BYTES = {
    "bcast": ("int", "MPI_Datatype"),
    "gather": _GATHER + ("int", "MPI_Comm"),
    "gatherv": _GATHERV + ("int", "MPI_Comm"),
    "scatter": ("int", "MPI_Datatype", "bool", "int", "MPI_Datatype", "int", "MPI_Comm"),
    "scatterv": ("const int*", "MPI_Datatype", "bool", "int", "MPI_Datatype", "int", "MPI_Comm"),
    "allgather": _GATHER + ("MPI_Comm",),
    "allgatherv": _GATHERV + ("MPI_Comm",),
    "alltoall": _GATHER + ("MPI_Comm",),
    "alltoallv": ("bool", "const int*", "MPI_Datatype", "const int*", "MPI_Datatype", "MPI_Comm"),
    "alltoallw": ("bool",) + _W,
    "reduce": ("int", "MPI_Datatype", "int", "MPI_Comm"),
    "allreduce": ("int", "MPI_Datatype"),
    "reduce_scatter": ("const int*", "MPI_Datatype", "MPI_Comm"),
    "reduce_scatter_block": ("int", "MPI_Datatype", "MPI_Comm"),
    "neighbor_allgather": _GATHER[1:] + ("MPI_Comm",),
    "neighbor_allgatherv": _GATHERV[1:] + ("MPI_Comm",),
    "neighbor_alltoall": _GATHER[1:] + ("MPI_Comm",),
    "neighbor_alltoallv": ("const int*", "MPI_Datatype", "const int*", "MPI_Datatype", "MPI_Comm"),
    "neighbor_alltoallw": _W,
}

def plan_of(function, side):
    spec = function.finish
    if spec.kind not in FINISHES:
        raise TableError(f"{function.name}: unknown finish kind '{spec.kind}'")
    render, arity = FINISHES[spec.kind]
    if len(spec.args) != arity:
        raise TableError(f"{function.name}: finish '{spec.kind}' takes {arity} arguments, "
                         f"{len(spec.args)} given")
    if spec.bytes and spec.kind != "collective":
        raise TableError(f"{function.name}: bytes given to a '{spec.kind}' finish")
    plan = Plan()
    render(side, spec, plan)
    if (plan.epilogue or plan.lead_in or plan.follow_up) and plan.call_args:
        raise TableError(f"{function.name}: a finish with an epilogue cannot change the measured PMPI call")
    return plan


# --- Writing -------------------------------------------------------------------------------------

HEADER = """\
// Generated by src/runtime/mpi/generate_wrappers.py from src/runtime/mpi/mpi_functions.py: edit
// those, not this file.
//
"""


LINE_LIMIT = 110  # .clang-format's ColumnLimit


def indent(lines, depth=1):
    return ["  " * depth + line for line in lines]


def wrap(line):
    """Breaks a long statement between the arguments of its outermost call, as clang-format would."""
    if len(line) <= LINE_LIMIT or "\n" in line or ")" not in line:
        return [line]
    close = line.rindex(")")
    depth, open_ = 0, None
    for i in range(close, -1, -1):  # the parenthesis that the last one closes
        depth += {")": 1, "(": -1}.get(line[i], 0)
        if depth == 0:
            open_ = i
            break
    args, depth, start = [], 0, open_ + 1
    for i in range(open_ + 1, close):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(line[i], 0)
        if line[i] == "," and depth == 0:
            args.append(line[start:i].strip())
            start = i + 1
    args.append(line[start:close].strip())
    if len(args) < 2:
        return [line]
    statement_indent = len(line) - len(line.lstrip())
    column = open_ + 1 if open_ + 1 <= 60 else statement_indent + 4
    lines, current = [], line[:open_ + 1]
    for i, arg in enumerate(args):
        piece = arg + ("," if i < len(args) - 1 else line[close:])
        if current.strip() and current[-1] not in "(" and len(current) + 1 + len(piece) > LINE_LIMIT:
            lines.append(current)
            current = " " * column + piece
        else:
            current += ("" if current.endswith("(") else " ") + piece
    lines.append(current)
    return lines


def wrapped(lines):
    return [piece for line in lines for piece in wrap(line)]


def wrapper_body(function, plan, forward, caller, returns):
    """The statements of a wrapper: `forward(args)` calls the next MPI layer with the given arguments."""
    begin = f'begin(call, "{function.name}", SiteKind::{function.kind}, {caller})'
    result = "const int result = " if returns else ""
    back = "return result;" if returns else None
    lines = list(plan.prologue)
    if not plan.measured:
        return lines + [f"return {forward(plan.always_args)};"]
    lines.append("Call call;")
    measured_args = {**plan.always_args, **plan.call_args}
    if plan.epilogue or plan.lead_in or plan.follow_up:
        lines += [f"const bool measured = {begin};", *plan.lead_in, f"{result}{forward(measured_args)};",
                  *plan.follow_up,
                  *(["if (measured) " + plan.finish[0]] if len(plan.finish) == 1
                    else ["if (measured) {", *indent(plan.finish), "}"]),
                  *plan.epilogue]
    else:
        unmeasured = f"if (!{begin}) return {forward(plan.always_args)};"
        fits = len(unmeasured) + 2 <= LINE_LIMIT  # as clang-format would, on one line when it fits
        lines += [*([unmeasured] if fits else [f"if (!{begin})", f"  return {forward(plan.always_args)};"]),
                  f"{result}{forward(measured_args)};", *plan.finish]
    return lines + ([back] if back else [])


def c_wrapper(function):
    params = parse_params(function)
    plan = plan_of(function, CSide(function, params))

    def forward(overrides):
        return f"PMPI_{function.name[4:]}({', '.join(overrides.get(p.name, p.name) for p in params)})"

    body = wrapper_body(function, plan, forward, "__builtin_return_address(0)", returns=True)
    signature = ", ".join([p.decl for p in params] + ([VARIADIC] if is_variadic(function) else [])) or "void"
    return [f"PARPERF_MPI_EXPORT int {function.name}({signature}) {{", *indent(body), "}", ""]


def write_c(functions):
    lines = [HEADER.rstrip("\n"),
             "// The C wrappers: MPI_X measures the call and forwards it to PMPI_X (measure.hpp).",
             "#include <mpi.h>", "",
             "#include <cstdint>", "",
             '#include "runtime/mpi/collective_bytes.hpp"',
             '#include "runtime/mpi/completion.hpp"',
             '#include "runtime/mpi/measure.hpp"',
             '#include "runtime/mpi/statuses.hpp"', "",
             '#define PARPERF_MPI_EXPORT __attribute__((visibility("default")))', "",
             "using namespace parperf::mpi;",
             "using namespace parperf::mpi::wrappers;",
             "using parperf::format::SiteKind;", "",
             'extern "C" {', ""]
    lines.insert(-2, f"// {len(functions)} functions.")
    for function in functions:
        lines += c_wrapper(function)
    lines += ['}  // extern "C"']
    return "\n".join(wrapped(lines)) + "\n"


def fortran_params(function, params):
    """The Fortran binding's arguments as C sees them: each by reference, IERROR last, then the
    hidden lengths of the CHARACTER arguments."""
    dropped = set(function.fortran_drop)
    unknown = dropped - {p.name for p in params}
    if unknown:
        raise TableError(f"{function.name}: fortran_drop names no parameter: {sorted(unknown)}")
    kept = [p for p in params if p.name not in dropped]
    args = [(fortran_type(p), p.name) for p in kept] + ([("MPI_Fint*", "ierror")] if function.fortran_ierror else [])
    args += [("size_t", f"{p.name}_length") for p in kept if fortran_type(p) == "char*"]
    return kept, args


def fortran_wrapper(function):
    params = parse_params(function)
    kept, args = fortran_params(function, params)
    side = FortranSide(function, kept)
    plan = plan_of(function, side)
    lower = function.name.lower()
    space = f"fortran_{function.name}"
    types = ", ".join(t for t, _ in args)
    decls = ", ".join(f"{t} {n}" for t, n in args)
    names = ", ".join(n for _, n in args)

    def forward(overrides):
        return f"next({', '.join(overrides.get(n, n) for _, n in args)})"

    body = wrapper_body(function, plan, forward, "caller", returns=False)
    lines = [f"// {function.name}",
             f"namespace {space} {{",
             f"using Binding = void({types});"]
    variants = [""] + (["_cptr"] if function.fortran_cptr else [])
    for suffix in variants:
        lines.append(f'constinit fortran::ProfilingEntry<Binding> pmpi{suffix}{{"p{lower}{suffix}_"}};')
    lines.append(f'constinit fortran::ProfilingEntry<Binding> pmpi_f08{{"p{lower}_f08_"}};')
    caller = "const void* caller" if plan.measured else "[[maybe_unused]] const void* caller"
    lines += [f"void measure(Binding* next, {caller}, {decls}) {{", *indent(body), "}",
              f"}}  // namespace {space}", ""]
    entries = []
    def entry(name, pmpi):
        return [f"PARPERF_MPI_EXPORT void {name}({decls}) {{",
                f"  {space}::measure({space}::{pmpi}.get(), __builtin_return_address(0), {names});", "}"]

    for suffix in variants:
        name = lower + suffix
        entries += entry(f"{name}_", f"pmpi{suffix}")
        for alias in (f"{name}__", name, name.upper()):
            declaration = f"PARPERF_MPI_EXPORT {space}::Binding {alias}"
            target = f'PARPERF_MPI_ALIAS("{name}_");'
            if len(declaration) + 1 + len(target) <= LINE_LIMIT:
                entries.append(f"{declaration} {target}")
            else:
                entries += [declaration, f"    {target}"]
    entries += entry(f"{lower}_f08_", "pmpi_f08") + [""]
    return lines, entries, 4 * len(variants) + 1


def write_fortran(functions):
    internals, entries, count = [], [], 0
    for function in functions:
        if function.fortran:
            lines, exported, n = fortran_wrapper(function)
            internals += lines
            entries += exported
            count += n
    lines = [HEADER.rstrip("\n"),
             "// The Fortran wrappers: the entry points of Open MPI's Fortran bindings (mpif.h and",
             "// `use mpi`: mpi_x_, mpi_x__, mpi_x, MPI_X; `use mpi_f08`: mpi_x_f08_) measure the call and",
             "// forward it to the Fortran profiling entry points (pmpi_x_, pmpi_x_f08_), which call PMPI_X",
             "// in C. See fortran_binding.hpp.",
             "//",
             "//",
             "// An f08 IERROR the caller omits arrives as a null pointer: it is passed on as it is, except",
             "// where the wrapper needs the outcome (communicator creation), which passes its own then.",
             "//",
             "// Open MPI only: MPICH's Fortran bindings call the C MPI_X functions, which the C wrappers",
             "// catch already, so with MPICH (no OPEN_MPI in mpi.h) this file defines nothing.",
             "#include <mpi.h>", "",
             "#if defined(OPEN_MPI)", "",
             "#include <cstddef>",
             "#include <cstdint>", "",
             '#include "runtime/mpi/collective_bytes.hpp"',
             '#include "runtime/mpi/completion.hpp"',
             '#include "runtime/mpi/fortran_binding.hpp"',
             '#include "runtime/mpi/measure.hpp"', "",
             '#define PARPERF_MPI_EXPORT __attribute__((visibility("default")))',
             "// The mpif.h spellings of one function share its code.",
             "#define PARPERF_MPI_ALIAS(target) __attribute__((alias(target)))", "",
             "using namespace parperf::mpi;",
             "using namespace parperf::mpi::wrappers;",
             "using parperf::format::SiteKind;",
             "using std::size_t;", "",
             "namespace {", "", *internals, "}  // namespace", "",
             f"// {count} entry points.",
             'extern "C" {', "", *entries, '}  // extern "C"', "",
             "#endif  // OPEN_MPI"]
    return "\n".join(wrapped(lines)) + "\n"


def check_table(functions):
    names = [f.name for f in functions]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise TableError(f"listed twice: {sorted(duplicates)}")
    for function in functions:
        if not re.fullmatch(r"MPI_[A-Z][a-z0-9_]*", function.name):
            raise TableError(f"{function.name}: not an MPI function name")
        # The compiler checks that format::SiteKind has the enumerator.
        if not re.fullmatch(r"mpi_[a-z_]+", function.kind):
            raise TableError(f"{function.name}: '{function.kind}' is no MPI site kind")


def main(argv):
    if len(argv) != 2:
        sys.exit(f"usage: {argv[0]} <output directory>")
    out = Path(argv[1])
    functions = mpi_functions.FUNCTIONS
    try:
        check_table(functions)
        outputs = {C_OUTPUT: write_c(functions), FORTRAN_OUTPUT: write_fortran(functions)}
    except TableError as error:
        sys.exit(f"{Path(mpi_functions.__file__).name}: {error}")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (out / name).write_text(text)


if __name__ == "__main__":
    main(sys.argv)
