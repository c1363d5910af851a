"""The MPI functions libparperf-mpi.so interposes: one row per function, read by generate_wrappers.py.

A row gives the C signature, the site kind (format::SiteKind, src/format/records.hpp) and how the
wrapper finishes the measurement (measure.hpp). The parameter types are Open MPI 4.1's mpi.h, which
has the const-correct MPI-3 signatures MPICH's mpi.h declares too: the generated wrappers are
checked against them by the compiler, since mpi.h declares every MPI_X a wrapper defines. The
parameter names are ours (the MPI standard's where they do not collide with a C macro such as
`assert`); the finish specifications refer to them.

A finish specification names a finish kind of generate_wrappers.py and its arguments: parameter
names, literals (0, -1, true, MPI_ANY_SOURCE, MPI_COMM_NULL, MPI_DATATYPE_NULL, nullptr) or
`in_place(<buffer parameter>)`. The generator checks every name against the signature and every
argument against the type the finish function takes, and fails on anything it does not know.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Finish:
    kind: str  # a key of generate_wrappers.FINISHES
    args: tuple[str, ...] = ()
    bytes: tuple[str, ...] = ()  # collectives: a function of collective_bytes.hpp and its arguments


@dataclass(frozen=True)
class Function:
    name: str  # "MPI_Send"
    params: str  # "const void* buf, int count, ..."
    kind: str  # SiteKind enumerator: "mpi_send"
    finish: Finish
    fortran: bool = True  # Open MPI has Fortran bindings for it (mpif.h, use mpi, use mpi_f08)
    fortran_drop: tuple[str, ...] = ()  # C parameters the Fortran binding does not have
    fortran_cptr: bool = False  # mpif.h has a second binding with a TYPE(C_PTR) argument (mpi_x_cptr_)
    fortran_ierror: bool = True  # the Fortran binding ends with IERROR (all but MPI_PCONTROL)


def finish(kind, *args, bytes=()):
    return Finish(kind, tuple(args), tuple(bytes))


FUNCTIONS: list[Function] = []


def add(names, params, kind, how, **options):
    """Adds one row per name: functions that differ only in name share the rest."""
    for name in names.split():
        FUNCTIONS.append(Function(name, params, kind, how, **options))


REQUEST = ", MPI_Request* request"


def add_collective(name, params, kind, bytes):
    """A collective and its non-blocking variant (MPI_Ixxx: the same parameters and a request).
    A rooted one names its root (the wait-state analysis needs to know who the others waited for)."""
    root = "root" if "int root" in params else "-1"
    add(name, params, kind, finish("collective", "comm", root, "nullptr", bytes=bytes))
    rest = name[len("MPI_"):]
    add("MPI_I" + rest[0].lower() + rest[1:], params + REQUEST, kind,
        finish("collective", "comm", root, "request", bytes=bytes))


# --- Process lifecycle ---------------------------------------------------------------------------
# The Fortran MPI_INIT and MPI_INIT_THREAD have no argc and argv.
add("MPI_Init", "int* argc, char*** argv", "mpi_management", finish("init"), fortran_drop=("argc", "argv"))
add("MPI_Init_thread", "int* argc, char*** argv, int required, int* provided", "mpi_management",
    finish("init_thread", "provided"), fortran_drop=("argc", "argv"))
add("MPI_Finalize", "void", "mpi_management", finish("finalize"))
add("MPI_Abort", "MPI_Comm comm, int errorcode", "mpi_management", finish("abort", "errorcode"))
# Profiling control (0 off, >= 1 on; recording_switch.hpp). mpi.h says `const int level`: a
# top-level const is no part of the function's type. The Fortran MPI_PCONTROL(LEVEL) has no IERROR.
add("MPI_Pcontrol", "int level, ...", "mpi_management", finish("control", "level"), fortran_ierror=False)

# --- Point-to-point ------------------------------------------------------------------------------
SEND = "const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm"
RECV = "void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm"
add("MPI_Send MPI_Bsend MPI_Ssend MPI_Rsend", SEND, "mpi_send",
    finish("send", "count", "datatype", "dest", "tag", "comm"))
add("MPI_Recv", RECV + ", MPI_Status* status", "mpi_recv",
    finish("recv", "count", "datatype", "source", "tag", "comm", "status"))
add("MPI_Sendrecv",
    "const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,"
    " int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status",
    "mpi_sendrecv",
    finish("sendrecv", "sendcount", "sendtype", "dest", "sendtag", "recvcount", "recvtype", "source", "recvtag", "comm",
           "status"))
add("MPI_Sendrecv_replace",
    "void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,"
    " MPI_Comm comm, MPI_Status* status",
    "mpi_sendrecv",
    finish("sendrecv", "count", "datatype", "dest", "sendtag", "count", "datatype", "source", "recvtag", "comm",
           "status"))
# A matched message has no communicator argument; measure.hpp's finish_recv and finish_request_start
# then get MPI_COMM_NULL and the partner is unknown (the status names a rank of the probe's
# communicator, which the wrapper cannot see).
add("MPI_Mrecv", "void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status",
    "mpi_recv", finish("recv", "count", "type", "MPI_ANY_SOURCE", "MPI_ANY_TAG", "MPI_COMM_NULL", "status"))

add("MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend", SEND + REQUEST, "mpi_isend",
    finish("request_start", "request", "count", "datatype", "dest", "tag", "comm", "false", "false"))
add("MPI_Irecv", RECV + REQUEST, "mpi_irecv",
    finish("request_start", "request", "count", "datatype", "source", "tag", "comm", "true", "false"))
add("MPI_Imrecv", "void* buf, int count, MPI_Datatype type, MPI_Message* message" + REQUEST, "mpi_irecv",
    finish("request_start", "request", "count", "type", "MPI_ANY_SOURCE", "MPI_ANY_TAG", "MPI_COMM_NULL", "true",
           "false"))
add("MPI_Send_init MPI_Bsend_init MPI_Ssend_init MPI_Rsend_init", SEND + REQUEST, "mpi_isend",
    finish("request_start", "request", "count", "datatype", "dest", "tag", "comm", "false", "true"))
add("MPI_Recv_init", RECV + REQUEST, "mpi_irecv",
    finish("request_start", "request", "count", "datatype", "source", "tag", "comm", "true", "true"))
add("MPI_Start", "MPI_Request* request", "mpi_start", finish("start", "1", "request"))
add("MPI_Startall", "int count, MPI_Request array_of_requests[]", "mpi_start",
    finish("start", "count", "array_of_requests"))
add("MPI_Request_free", "MPI_Request* request", "mpi_management", finish("request_free", "request"))

add("MPI_Probe", "int source, int tag, MPI_Comm comm, MPI_Status* status", "mpi_probe",
    finish("probe", "source", "comm", "status"))
add("MPI_Iprobe", "int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status", "mpi_probe",
    finish("probe_test", "source", "comm", "flag", "status"))
add("MPI_Mprobe", "int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status", "mpi_probe",
    finish("probe", "source", "comm", "status"))
add("MPI_Improbe", "int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status",
    "mpi_probe", finish("probe_test", "source", "comm", "flag", "status"))

# --- Completion ----------------------------------------------------------------------------------
add("MPI_Wait", "MPI_Request* request, MPI_Status* status", "mpi_wait", finish("wait", "request", "status"))
add("MPI_Test", "MPI_Request* request, int* flag, MPI_Status* status", "mpi_test",
    finish("test", "request", "flag", "status"))
add("MPI_Waitall", "int count, MPI_Request array_of_requests[], MPI_Status* array_of_statuses", "mpi_wait",
    finish("wait_all", "count", "array_of_requests", "array_of_statuses"))
add("MPI_Testall", "int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]",
    "mpi_test", finish("test_all", "count", "array_of_requests", "flag", "array_of_statuses"))
add("MPI_Waitany", "int count, MPI_Request array_of_requests[], int* index, MPI_Status* status", "mpi_wait",
    finish("wait_any", "count", "array_of_requests", "index", "status"))
add("MPI_Testany", "int count, MPI_Request array_of_requests[], int* index, int* flag, MPI_Status* status",
    "mpi_test", finish("test_any", "count", "array_of_requests", "index", "flag", "status"))
SOME = ("int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],"
        " MPI_Status array_of_statuses[]")
add("MPI_Waitsome", SOME, "mpi_wait",
    finish("wait_some", "incount", "array_of_requests", "outcount", "array_of_indices", "array_of_statuses"))
add("MPI_Testsome", SOME, "mpi_test",
    finish("test_some", "incount", "array_of_requests", "outcount", "array_of_indices", "array_of_statuses"))

# --- Collectives ---------------------------------------------------------------------------------
# Bytes are what this rank sends and receives (collective_bytes.hpp says how each is counted). The
# arguments MPI ignores -- the send arguments with MPI_IN_PLACE, the root's arguments on the other
# ranks -- are never read: they may be garbage.
GATHER = ("const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,"
          " MPI_Datatype recvtype")
GATHERV = ("const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],"
           " const int displs[], MPI_Datatype recvtype")
SCATTERV = ("const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,"
            " void* recvbuf, int recvcount, MPI_Datatype recvtype")
ALLTOALLV = ("const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,"
             " void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype")
ALLTOALLW = ("const void* sendbuf, const int sendcounts[], const int sdispls[],"
             " const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],"
             " const MPI_Datatype recvtypes[]")
# MPI_Neighbor_alltoallw's displacements are MPI_Aint, unlike MPI_Alltoallw's.
NEIGHBOR_ALLTOALLW = ALLTOALLW.replace("const int sdispls[]", "const MPI_Aint sdispls[]").replace(
    "const int rdispls[]", "const MPI_Aint rdispls[]")
REDUCE = "const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op"
ROOTED = ", int root, MPI_Comm comm"
COMM = ", MPI_Comm comm"

add_collective("MPI_Barrier", "MPI_Comm comm", "mpi_barrier", ())
add_collective("MPI_Bcast", "void* buffer, int count, MPI_Datatype datatype" + ROOTED, "mpi_broadcast",
               ("bcast", "count", "datatype"))
add_collective("MPI_Gather", GATHER + ROOTED, "mpi_gather_scatter",
               ("gather", "in_place(sendbuf)", "sendcount", "sendtype", "recvcount", "recvtype", "root",
                "comm"))
add_collective("MPI_Gatherv", GATHERV + ROOTED, "mpi_gather_scatter",
               ("gatherv", "in_place(sendbuf)", "sendcount", "sendtype", "recvcounts", "recvtype", "root",
                "comm"))
add_collective("MPI_Scatter", GATHER + ROOTED, "mpi_gather_scatter",
               ("scatter", "sendcount", "sendtype", "in_place(recvbuf)", "recvcount", "recvtype", "root",
                "comm"))
add_collective("MPI_Scatterv", SCATTERV + ROOTED, "mpi_gather_scatter",
               ("scatterv", "sendcounts", "sendtype", "in_place(recvbuf)", "recvcount", "recvtype", "root",
                "comm"))
add_collective("MPI_Allgather", GATHER + COMM, "mpi_gather_scatter",
               ("allgather", "in_place(sendbuf)", "sendcount", "sendtype", "recvcount", "recvtype", "comm"))
add_collective("MPI_Allgatherv", GATHERV + COMM, "mpi_gather_scatter",
               ("allgatherv", "in_place(sendbuf)", "sendcount", "sendtype", "recvcounts", "recvtype", "comm"))
add_collective("MPI_Alltoall", GATHER + COMM, "mpi_all_to_all",
               ("alltoall", "in_place(sendbuf)", "sendcount", "sendtype", "recvcount", "recvtype", "comm"))
add_collective("MPI_Alltoallv", ALLTOALLV + COMM, "mpi_all_to_all",
               ("alltoallv", "in_place(sendbuf)", "sendcounts", "sendtype", "recvcounts", "recvtype", "comm"))
add_collective("MPI_Alltoallw", ALLTOALLW + COMM, "mpi_all_to_all",
               ("alltoallw", "in_place(sendbuf)", "sendcounts", "sendtypes", "recvcounts", "recvtypes",
                "comm"))
add_collective("MPI_Reduce", REDUCE + ROOTED, "mpi_reduction",
               ("reduce", "count", "datatype", "root", "comm"))
add_collective("MPI_Allreduce", REDUCE + COMM, "mpi_reduction", ("allreduce", "count", "datatype"))
add_collective("MPI_Reduce_scatter",
               "const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,"
               " MPI_Op op" + COMM,
               "mpi_reduction", ("reduce_scatter", "recvcounts", "datatype", "comm"))
add_collective("MPI_Reduce_scatter_block",
               "const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op" + COMM,
               "mpi_reduction", ("reduce_scatter_block", "recvcount", "datatype", "comm"))
add_collective("MPI_Scan", REDUCE + COMM, "mpi_reduction", ("allreduce", "count", "datatype"))
add_collective("MPI_Exscan", REDUCE + COMM, "mpi_reduction", ("allreduce", "count", "datatype"))
add_collective("MPI_Neighbor_allgather", GATHER + COMM, "mpi_gather_scatter",
               ("neighbor_allgather", "sendcount", "sendtype", "recvcount", "recvtype", "comm"))
add_collective("MPI_Neighbor_allgatherv", GATHERV + COMM, "mpi_gather_scatter",
               ("neighbor_allgatherv", "sendcount", "sendtype", "recvcounts", "recvtype", "comm"))
add_collective("MPI_Neighbor_alltoall", GATHER + COMM, "mpi_all_to_all",
               ("neighbor_alltoall", "sendcount", "sendtype", "recvcount", "recvtype", "comm"))
add_collective("MPI_Neighbor_alltoallv", ALLTOALLV + COMM, "mpi_all_to_all",
               ("neighbor_alltoallv", "sendcounts", "sendtype", "recvcounts", "recvtype", "comm"))
add_collective("MPI_Neighbor_alltoallw", NEIGHBOR_ALLTOALLW + COMM, "mpi_all_to_all",
               ("neighbor_alltoallw", "sendcounts", "sendtypes", "recvcounts", "recvtypes", "comm"))

# --- Communicators and groups --------------------------------------------------------------------
# Creators register the new communicator once PMPI returned (after_comm_create), destroyers
# unregister it before (before_comm_free).
add("MPI_Comm_split", "MPI_Comm comm, int color, int key, MPI_Comm* newcomm", "mpi_management",
    finish("comm_create", "newcomm"))
add("MPI_Comm_split_type", "MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm",
    "mpi_management", finish("comm_create", "newcomm"))
add("MPI_Comm_dup", "MPI_Comm comm, MPI_Comm* newcomm", "mpi_management", finish("comm_create", "newcomm"))
add("MPI_Comm_dup_with_info", "MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm", "mpi_management",
    finish("comm_create", "newcomm"))
# The handle exists when MPI_Comm_idup returns, the communicator is usable once the request completed.
add("MPI_Comm_idup", "MPI_Comm comm, MPI_Comm* newcomm" + REQUEST, "mpi_management",
    finish("comm_create", "newcomm"))
add("MPI_Comm_create", "MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm", "mpi_management",
    finish("comm_create", "newcomm"))
add("MPI_Comm_create_group", "MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm", "mpi_management",
    finish("comm_create", "newcomm"))
add("MPI_Cart_create",
    "MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* comm_cart",
    "mpi_management", finish("comm_create", "comm_cart"))
add("MPI_Cart_sub", "MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm", "mpi_management",
    finish("comm_create", "newcomm"))
add("MPI_Graph_create",
    "MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* comm_graph",
    "mpi_management", finish("comm_create", "comm_graph"))
add("MPI_Dist_graph_create",
    "MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],"
    " const int weights[], MPI_Info info, int reorder, MPI_Comm* comm_dist_graph",
    "mpi_management", finish("comm_create", "comm_dist_graph"))
add("MPI_Dist_graph_create_adjacent",
    "MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree,"
    " const int destinations[], const int destweights[], MPI_Info info, int reorder,"
    " MPI_Comm* comm_dist_graph",
    "mpi_management", finish("comm_create", "comm_dist_graph"))
add("MPI_Intercomm_create",
    "MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,"
    " MPI_Comm* newintercomm",
    "mpi_management", finish("comm_create", "newintercomm"))
add("MPI_Intercomm_merge", "MPI_Comm intercomm, int high, MPI_Comm* newintracomm", "mpi_management",
    finish("comm_create", "newintracomm"))
add("MPI_Comm_free MPI_Comm_disconnect", "MPI_Comm* comm", "mpi_management", finish("comm_free", "comm"))

add("MPI_Comm_group MPI_Comm_remote_group", "MPI_Comm comm, MPI_Group* group", "mpi_management",
    finish("plain"))
add("MPI_Group_incl MPI_Group_excl", "MPI_Group group, int n, const int ranks[], MPI_Group* newgroup",
    "mpi_management", finish("plain"))
add("MPI_Group_union MPI_Group_intersection MPI_Group_difference",
    "MPI_Group group1, MPI_Group group2, MPI_Group* newgroup", "mpi_management", finish("plain"))
add("MPI_Group_free", "MPI_Group* group", "mpi_management", finish("plain"))

# --- One-sided -----------------------------------------------------------------------------------
# Creators register the new window once PMPI returned (its fences are matched across its group),
# MPI_Win_free unregisters it before.
add("MPI_Win_create", "void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win",
    "mpi_management", finish("win_create", "comm", "win"))
# baseptr is really a void** (the standard keeps void* so that any pointer's address converts).
add("MPI_Win_allocate MPI_Win_allocate_shared",
    "MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win",
    "mpi_management", finish("win_create", "comm", "win"), fortran_cptr=True)
add("MPI_Win_create_dynamic", "MPI_Info info, MPI_Comm comm, MPI_Win* win", "mpi_management",
    finish("win_create", "comm", "win"))
add("MPI_Win_free", "MPI_Win* win", "mpi_management", finish("win_free", "win"))

PUT = ("const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,"
       " MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype")
GET = PUT.replace("const void* origin_addr", "void* origin_addr")
GET_ACCUMULATE = ("const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,"
                  " void* result_addr,"
                  " int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,"
                  " int target_count, MPI_Datatype target_datatype, MPI_Op op")
ORIGIN = finish("one_sided", "origin_count", "origin_datatype", "target_rank", "win")
# With MPI_NO_OP the origin arguments of a Get_accumulate are ignored (may be garbage): the bytes
# are the result's, which always arrive.
RESULT = finish("one_sided", "result_count", "result_datatype", "target_rank", "win")
add("MPI_Put", PUT + ", MPI_Win win", "mpi_one_sided", ORIGIN)
add("MPI_Get", GET + ", MPI_Win win", "mpi_one_sided", ORIGIN)
add("MPI_Accumulate", PUT + ", MPI_Op op, MPI_Win win", "mpi_one_sided", ORIGIN)
add("MPI_Get_accumulate", GET_ACCUMULATE + ", MPI_Win win", "mpi_one_sided", RESULT)
add("MPI_Rput", PUT + ", MPI_Win win" + REQUEST, "mpi_one_sided", ORIGIN)
add("MPI_Rget", GET + ", MPI_Win win" + REQUEST, "mpi_one_sided", ORIGIN)
add("MPI_Raccumulate", PUT + ", MPI_Op op, MPI_Win win" + REQUEST, "mpi_one_sided", ORIGIN)
add("MPI_Rget_accumulate", GET_ACCUMULATE + ", MPI_Win win" + REQUEST, "mpi_one_sided", RESULT)
add("MPI_Fetch_and_op",
    "const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,"
    " MPI_Aint target_disp, MPI_Op op, MPI_Win win",
    "mpi_one_sided", finish("one_sided", "1", "datatype", "target_rank", "win"))
add("MPI_Compare_and_swap",
    "const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,"
    " int target_rank, MPI_Aint target_disp, MPI_Win win",
    "mpi_one_sided", finish("one_sided", "1", "datatype", "target_rank", "win"))

# Synchronization moves no data of its own; the target is the rank it names, else -1 (the window).
WHOLE_WINDOW = finish("one_sided", "0", "MPI_DATATYPE_NULL", "-1", "win")
ONE_RANK = finish("one_sided", "0", "MPI_DATATYPE_NULL", "rank", "win")
add("MPI_Win_fence", "int assertion, MPI_Win win", "mpi_one_sided_sync", finish("window_fence", "assertion", "win"))
# Synchronizations that wait for other ranks (a lock's holder, post-start-complete-wait's partners):
# their time beyond the call's own overhead is waiting (Real_sync). A lock and its unlock name their
# window and the lock's type in the trace, so that the analysis can hand a lock from one holder to the
# next (-1: every rank's lock of the window).
add("MPI_Win_lock_all", "int assertion, MPI_Win win", "mpi_one_sided_sync",
    finish("window_lock", "MPI_LOCK_SHARED", "-1", "win"))
add("MPI_Win_lock", "int lock_type, int rank, int assertion, MPI_Win win", "mpi_one_sided_sync",
    finish("window_lock", "lock_type", "rank", "win"))
add("MPI_Win_unlock", "int rank, MPI_Win win", "mpi_one_sided_sync", finish("window_unlock", "rank", "win"))
add("MPI_Win_unlock_all", "MPI_Win win", "mpi_one_sided_sync", finish("window_unlock", "-1", "win"))
add("MPI_Win_flush MPI_Win_flush_local", "int rank, MPI_Win win", "mpi_one_sided_sync", ONE_RANK)
add("MPI_Win_flush_all MPI_Win_flush_local_all MPI_Win_sync", "MPI_Win win", "mpi_one_sided_sync", WHOLE_WINDOW)
# Post-start-complete-wait: a post and a start name their window and their group's members, a
# complete, wait and test their window (a test whether it ended the exposure epoch), so that the
# analysis can link each start to the posts it waited for and each wait to the completes.
add("MPI_Win_post", "MPI_Group group, int assertion, MPI_Win win", "mpi_one_sided_sync",
    finish("window_group", "group", "false", "win"))
add("MPI_Win_start", "MPI_Group group, int assertion, MPI_Win win", "mpi_one_sided_sync",
    finish("window_group", "group", "true", "win"))
add("MPI_Win_complete", "MPI_Win win", "mpi_one_sided_sync", finish("window_epoch_end", "true", "false", "win"))
add("MPI_Win_wait", "MPI_Win win", "mpi_one_sided_sync", finish("window_epoch_end", "true", "true", "win"))
add("MPI_Win_test", "MPI_Win win, int* flag", "mpi_one_sided_sync", finish("window_test", "win", "flag"))

# --- MPI-IO --------------------------------------------------------------------------------------
add("MPI_File_open", "MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh",
    "mpi_management", finish("plain"))
add("MPI_File_close", "MPI_File* fh", "mpi_management", finish("plain"))
IO = finish("io", "count", "datatype")
add("MPI_File_read MPI_File_read_all MPI_File_read_shared MPI_File_read_ordered",
    "MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status", "mpi_io", IO)
add("MPI_File_write MPI_File_write_all MPI_File_write_shared MPI_File_write_ordered",
    "MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status", "mpi_io", IO)
add("MPI_File_read_at MPI_File_read_at_all",
    "MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status",
    "mpi_io", IO)
add("MPI_File_write_at MPI_File_write_at_all",
    "MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status",
    "mpi_io", IO)
add("MPI_File_iread MPI_File_iread_all", "MPI_File fh, void* buf, int count, MPI_Datatype datatype" + REQUEST,
    "mpi_io", IO)
add("MPI_File_iwrite MPI_File_iwrite_all",
    "MPI_File fh, const void* buf, int count, MPI_Datatype datatype" + REQUEST, "mpi_io", IO)
add("MPI_File_iread_at MPI_File_iread_at_all",
    "MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype" + REQUEST, "mpi_io", IO)
add("MPI_File_iwrite_at MPI_File_iwrite_at_all",
    "MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype" + REQUEST,
    "mpi_io", IO)
add("MPI_File_sync", "MPI_File fh", "mpi_io", finish("io", "0", "MPI_DATATYPE_NULL"))
