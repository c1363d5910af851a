"""The table of the OpenSHMEM wrappers of libparperf-shmem.so (docs/shmem.md).

OpenSHMEM has about 900 entry points that differ only in their type tag (`shmem_int_put`,
`shmem_ctx_double_get_nbi`, ...), so the table does not list functions: it lists name patterns, and
generate_wrappers.py applies them to every `pshmem_*` prototype that pshmem.h and pshmemx.h declare and
the library exports. Each rule says how a wrapper measures its call:

    (pattern, kind, finish)

`pattern` is a regular expression matched against the whole public name with its prefix (`shmem_`,
`shmemx_`) and a context's `ctx_` removed; `kind` the format::SiteKind (site_kinds.hpp); `finish`
one of generate_wrappers.FINISHES, or None for a function that is not wrapped at all (queries and
no-ops: the program calls the library directly and pays nothing). The first rule that matches
decides; a declared function that no rule matches stops the build, naming the function.
"""

# The type tags of typed functions: `shmem_<T>_put`. Sized and untyped forms (`put32`, `putmem`) are
# matched by their own patterns.
TYPES = (r"(?:char|schar|uchar|short|ushort|int|uint|long|ulong|longlong|ulonglong|float|double|"
         r"longdouble|int8|int16|int32|int64|uint8|uint16|uint32|uint64|size|ptrdiff|complexf|complexd)")
T = TYPES + "_"

RULES = [
    # Start-up and shut-down (the process's identity, the profile written before an abort).
    (r"init|init_thread|start_pes", "shmem_management", "init"),
    (r"finalize", "shmem_management", "finalize"),
    (r"global_exit", "shmem_management", "global_exit"),
    # Queries and no-ops: nothing to measure.
    (r"my_pe|n_pes|_my_pe|_num_pes|query_thread|pe_accessible|addr_accessible|ptr|info_get_\w+", None, None),
    (r"(set|clear)_cache(_line)?_inv|udcflush(_line)?", None, None),
    # The symmetric heap and contexts: collective or local management.
    (r"malloc|calloc|align|realloc|free|malloc_with_hint|shmalloc|shfree|shrealloc|shmemalign",
     "shmem_management", "plain"),
    (r"create|destroy", "shmem_management", "plain"),
    # Ordering and completion.
    (r"fence|quiet", "shmem_memory_sync", "plain"),
    # Barriers.
    # Barriers: a PE's time in one is waiting for the last to arrive (its share of the arrival spread).
    (r"barrier_all|sync_all", "shmem_barrier", "waiting"),
    (r"barrier|sync", "shmem_barrier", "set_waiting"),
    # Locks: acquiring one is waiting for it; each call names its lock (lock_identity.hpp).
    (r"set_lock", "shmem_lock", "set_lock"),
    (r"test_lock", "shmem_lock", "test_lock"),
    (r"clear_lock", "shmem_lock", "clear_lock"),
    # Point-to-point synchronization: waiting on a location another PE writes.
    (r"(" + T + r")?wait(_until)?", "shmem_point_sync", "waiting"),
    (T + r"test", "shmem_point_sync", "plain"),
    # Collectives.
    (r"broadcast(32|64)", "shmem_broadcast", "broadcast"),
    (r"f?collect(32|64)", "shmem_gather_scatter", "collect"),
    (r"alltoalls?(32|64)", "shmem_all_to_all", "alltoall"),
    (T + r"(sum|prod|min|max|and|or|xor)_to_all", "shmem_reduction", "reduce"),
    # Remote memory access; non-blocking forms first.
    (r"(" + T + r")?put(mem|8|16|32|64|128)?_nbi", "shmem_put_nbi", "put"),
    (r"(" + T + r")?get(mem|8|16|32|64|128)?_nbi", "shmem_get_nbi", "get"),
    (r"(" + T + r")?i?put(mem|8|16|32|64|128)?|" + T + "p", "shmem_put", "put"),
    (r"(" + T + r")?i?get(mem|8|16|32|64|128)?|" + T + "g", "shmem_get", "get"),
    # Atomic memory operations, OpenSHMEM 1.4 names and the deprecated ones.
    (T + r"atomic_(fetch_add|add|fetch_inc|inc|compare_swap|fetch|set|swap|and|or|xor|fetch_and|fetch_or|"
     r"fetch_xor)", "shmem_atomic", "atomic"),
    (r"(" + T + r")?(fadd|finc|add|inc|cswap|fetch|set|swap)", "shmem_atomic", "atomic"),
]
