// Every kind of site a profile can name, defined once: its number in the file (SiteKind), its JSON
// key, the words the report and the readable trace say it with, the name a collector gives a site of
// that kind, and its class. The runtime, the analysis and every report read this one table, so a
// new collector's kinds (SHMEM's puts and gets, say) are added in one place.
//
// Header-only and constexpr: the runtime links no C++ library (docs/runtime.md), so the table must
// cost nothing at load time.
#pragma once

#include <cstdint>
#include <string_view>

namespace parperf::format {

// Kinds of sites (SiteRecord::kind). 0-15 are the annotation API's parperf_kind values and the
// instrumented functions' kind (5); the collectors' kinds follow, one range per collector: OpenMP
// 16-63, MPI 64-127, OpenSHMEM 128-159, UPC through GASP 160-191. Interval kinds head a tree node; operation
// kinds name an OperationStatsRecord (an event at a source site: DESIGN.md section 2).
enum class SiteKind : std::uint32_t {
  program = 0,
  user = 1,
  parallel_loop = 2,
  sequential_loop = 3,
  branch = 4,  // one arm of a branch in a loop body (loop balance: its frequency and cost)
  // A function entered, found by the compiler's instrumentation (src/runtime/functions/): its site
  // is the function's entry address, symbolized post mortem into its name, file and line.
  function = 5,
  // OpenMP intervals
  omp_parallel = 16,
  omp_loop = 17,
  omp_sections = 18,
  omp_single = 19,
  omp_workshare = 20,
  omp_distribute = 21,
  omp_taskloop = 22,
  omp_masked = 23,
  omp_task = 24,
  omp_scope = 25,
  // OpenMP operations (SRC points)
  omp_barrier = 32,                 // explicit barrier
  omp_implicit_barrier = 33,        // at the end of a work-sharing construct (its site is the construct's)
  omp_join_barrier = 34,            // at the end of a parallel region (its site is the region's)
  omp_implementation_barrier = 35,  // a barrier the runtime added
  omp_taskwait = 36,
  omp_taskgroup = 37,
  omp_reduction = 38,
  omp_critical = 39,
  omp_lock = 40,
  omp_nest_lock = 41,
  omp_ordered = 42,
  omp_atomic = 43,
  omp_flush = 44,
  omp_task_create = 45,
  omp_lock_init = 46,
  omp_lock_destroy = 47,
  // MPI operations, one kind per class of call; the site's name is the MPI function's.
  mpi_send = 64,            // blocking send (Send, Bsend, Ssend, Rsend)
  mpi_recv = 65,            // blocking receive (Recv, Mrecv)
  mpi_sendrecv = 66,        // Sendrecv, Sendrecv_replace
  mpi_isend = 67,           // starts a send (Isend..., persistent Send_init...)
  mpi_irecv = 68,           // starts a receive (Irecv, Imrecv, Recv_init)
  mpi_start = 69,           // Start, Startall
  mpi_wait = 70,            // Wait, Waitall, Waitany, Waitsome
  mpi_test = 71,            // Test, Testall, Testany, Testsome
  mpi_probe = 72,           // Probe, Iprobe, Mprobe, Improbe
  mpi_barrier = 80,         // Barrier, Ibarrier
  mpi_broadcast = 81,       // Bcast, Ibcast
  mpi_reduction = 82,       // Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan (and I...)
  mpi_all_to_all = 83,      // Alltoall, Alltoallv, Alltoallw, Neighbor_alltoall* (and I...)
  mpi_gather_scatter = 84,  // Gather(v), Allgather(v), Scatter(v), Neighbor_allgather* (and I...)
  mpi_one_sided = 90,       // Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap, R...
  mpi_one_sided_sync = 91,  // Win_fence, Win_lock/unlock(_all), Win_start/complete/post/wait, Win_flush*
  mpi_io = 96,              // File_read*, File_write*, File_sync
  mpi_management = 100,     // communicators, groups, windows, files opened and closed, Init, Finalize
  // OpenSHMEM operations, one kind per class of call; the site's name is the shmem_ function's.
  shmem_put = 128,             // blocking puts: put, p, iput, putmem, typed and sized, with a context
  shmem_get = 129,             // blocking gets: get, g, iget, getmem
  shmem_put_nbi = 130,         // non-blocking puts (complete at the next quiet)
  shmem_get_nbi = 131,         // non-blocking gets
  shmem_atomic = 132,          // atomic memory operations, 1.4 and deprecated names
  shmem_barrier = 136,         // barrier_all, barrier, sync_all, sync
  shmem_broadcast = 137,       // broadcast32/64
  shmem_reduction = 138,       // *_to_all
  shmem_all_to_all = 139,      // alltoall(s)32/64
  shmem_gather_scatter = 140,  // collect32/64, fcollect32/64
  shmem_memory_sync = 144,     // fence, quiet (and their context forms)
  shmem_lock = 145,            // set_lock (acquisition: its time is waiting), clear_lock, test_lock
  shmem_point_sync = 146,      // wait, wait_until (their time is waiting), test
  shmem_management = 150,      // init, finalize, global_exit, symmetric heap, contexts created and destroyed
  // UPC operations reported through the GASP tool interface (src/runtime/gasp/), sites at the file
  // and line the compiler passes; the site's name is the UPC operation's ("upc_memput"). A
  // upc_forall is an interval of kind parallel_loop.
  upc_put = 160,      // a shared write: assignment to shared data, upc_memput, upc_memset, non-blocking puts
  upc_get = 161,      // a shared read: read of shared data, upc_memget, non-blocking gets
  upc_memcpy = 162,   // upc_memcpy, shared to shared
  upc_nb_sync = 163,  // completion of a non-blocking get or put
  upc_fence = 164,    // upc_fence, and the fence of a strict access
  upc_notify = 165,   // upc_notify: the first half of a split-phase barrier
  upc_wait = 166,     // upc_wait: the second half, where a thread waits for the others
  upc_barrier = 167,  // upc_barrier
  upc_lock = 168,     // upc_lock, upc_lock_attempt: acquisition of a global lock
  upc_unlock = 169,   // upc_unlock
  upc_broadcast = 170,       // upc_all_broadcast
  upc_reduction = 171,       // upc_all_reduce*, upc_all_prefix_reduce*
  upc_all_to_all = 172,      // upc_all_exchange, upc_all_permute
  upc_gather_scatter = 173,  // upc_all_gather, upc_all_gather_all, upc_all_scatter
  upc_management = 174,  // shared heap and lock allocation and release, upc_global_exit, the collective exit
};
inline constexpr std::uint32_t kFirstOperationKind = 32;
inline constexpr bool is_operation_kind(std::uint32_t kind) { return kind >= kFirstOperationKind; }
inline constexpr std::uint32_t kFirstMpiKind = 64;
inline constexpr bool is_mpi_kind(std::uint32_t kind) { return kind >= kFirstMpiKind && kind < 128; }
// Collective operations: their instances are matched across ranks (CollectiveInstanceRecord).
inline constexpr bool is_mpi_collective_kind(std::uint32_t kind) { return kind >= 80 && kind <= 84; }
// The calls whose events with a communicator are instances matched across its members: the
// collectives, and MPI_Win_fence, which the collector traces with its window's group as the
// communicator when the fence synchronizes (src/runtime/mpi/windows.hpp). The window's locks and
// unlocks carry it too, as a message's channel (WindowLockType), and are no instances.
inline constexpr bool is_mpi_instance(std::uint32_t kind, std::string_view name) {
  return is_mpi_collective_kind(kind) ||
         (kind == static_cast<std::uint32_t>(SiteKind::mpi_one_sided_sync) && name == "MPI_Win_fence");
}
// What the trace's `match` (TraceEvent) of an MPI_Win_lock or MPI_Win_lock_all says of the lock it
// takes (the event's communicator is its window's, its partner the rank whose lock it is, -1 for
// every rank's).
enum class WindowLockType : std::int64_t { exclusive = 1, shared = 2 };
inline constexpr bool takes_window_lock(std::uint32_t kind, std::string_view name) {
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_one_sided_sync) &&
         (name == "MPI_Win_lock" || name == "MPI_Win_lock_all");
}
// An OpenSHMEM lock call's `match` (shmem_set_lock, a shmem_test_lock that took the lock,
// shmem_clear_lock) is the lock's identity, the same on every PE: this bit and the lock's offset in
// the program's image for a global or static lock, else its address (the symmetric heap lies at one
// address in every PE). 0: not known (a collector before it was traced, a test_lock that failed).
inline constexpr std::int64_t kShmemLockInImage = std::int64_t{1} << 62;
// MPI_Win_post and MPI_Win_start are traced with their window as the communicator, their group's
// first member's MPI_COMM_WORLD rank as the partner (-1: none, or not in MPI_COMM_WORLD's group) and
// its size as the match, followed by one event for each further member, at the call's end with no
// duration, whose match is this; MPI_Win_complete, _wait and _test with their window and a match of 1
// when they ended their epoch (a test that returned false: 0).
inline constexpr std::int64_t kWindowGroupMember = -1;
// Whether an operation event is such a further member: part of the call before it, not a call.
inline constexpr bool is_window_group_member(std::uint32_t kind, std::int64_t match) {
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_one_sided_sync) && match == kWindowGroupMember;
}
// "exclusive" or "shared" for a lock's `match`, "" for a value no collector writes.
inline constexpr std::string_view window_lock_type_name(std::int64_t match) {
  if (match == static_cast<std::int64_t>(WindowLockType::exclusive)) return "exclusive";
  if (match == static_cast<std::int64_t>(WindowLockType::shared)) return "shared";
  return "";
}
inline constexpr bool is_shmem_kind(std::uint32_t kind) { return kind >= 128 && kind < 160; }
inline constexpr std::uint32_t kFirstUpcKind = 160;
inline constexpr bool is_upc_kind(std::uint32_t kind) { return kind >= kFirstUpcKind && kind < 192; }

// What a site kind is, as the analysis groups it. Interval kinds head a tree node; the rest name
// operations. The communication classes are those the report gives MPI's figures by (DESIGN.md
// section 4: "each characteristic is also given per collective/communication class").
enum class SiteClass : std::uint8_t {
  interval,          // a region the report is organised by
  openmp_operation,  // an OpenMP synchronization or task operation (an SRC point)
  point_to_point,    // send, receive, their non-blocking forms and completions, probes
  barrier,
  broadcast,
  reduction,
  all_to_all,
  gather_scatter,
  one_sided,   // RMA calls and their synchronization
  io,          // MPI-IO
  management,  // Init, Finalize, communicators, windows, files: productive Sys, not communication
  // The one-sided models' (PGAS: OpenSHMEM, UPC) own classes; their collectives use the classes
  // above.
  put,          // a write into another process's memory (put, p, iput, non-blocking puts, memput)
  get,          // a read of another process's memory
  atomic,       // a remote atomic memory operation (fetch-add, swap, compare-swap, ...)
  memory_sync,  // ordering and completion of one-sided operations (fence, quiet, a non-blocking sync)
  lock,         // a global lock's acquisition and release
  point_sync,   // waiting on a memory location another process writes (wait_until, test)
};

struct SiteKindInfo {
  SiteKind kind;
  std::string_view key;    // the JSON value: "omp_loop"
  std::string_view words;  // the report's words: "omp loop"
  // The readable trace's words (`parperf trace`): it shows each thread's raw record, so it keeps
  // apart what the report merges (a join barrier is the report's "implicit barrier").
  std::string_view listing_words;
  // The name a collector gives a site of this kind found at a code address ("parallel"); empty for
  // kinds whose sites the program or the collector names otherwise (user intervals, MPI functions).
  // Written into profiles: changing one changes the files.
  std::string_view site_name;
  std::string_view alias;  // another name users know the kind by ("master"), for filters; may be empty
  SiteClass site_class;
};

inline constexpr SiteKindInfo kSiteKinds[] = {
    {SiteKind::program, "program", "program", "program", "", "", SiteClass::interval},
    {SiteKind::user, "user", "user", "user interval", "", "", SiteClass::interval},
    {SiteKind::parallel_loop, "parallel_loop", "parallel loop", "parallel loop", "", "", SiteClass::interval},
    {SiteKind::sequential_loop, "sequential_loop", "sequential loop", "sequential loop", "", "",
     SiteClass::interval},
    {SiteKind::branch, "branch", "branch", "branch", "", "", SiteClass::interval},
    {SiteKind::function, "function", "function", "function", "function", "", SiteClass::interval},
    {SiteKind::omp_parallel, "omp_parallel", "parallel region", "parallel region", "parallel", "",
     SiteClass::interval},
    {SiteKind::omp_loop, "omp_loop", "omp loop", "loop", "loop", "", SiteClass::interval},
    {SiteKind::omp_sections, "omp_sections", "sections", "sections", "sections", "", SiteClass::interval},
    {SiteKind::omp_single, "omp_single", "single", "single", "single", "", SiteClass::interval},
    {SiteKind::omp_workshare, "omp_workshare", "workshare", "workshare", "workshare", "",
     SiteClass::interval},
    {SiteKind::omp_distribute, "omp_distribute", "distribute", "distribute", "distribute", "",
     SiteClass::interval},
    {SiteKind::omp_taskloop, "omp_taskloop", "taskloop", "taskloop", "taskloop", "", SiteClass::interval},
    {SiteKind::omp_masked, "omp_masked", "masked", "masked", "masked", "master", SiteClass::interval},
    {SiteKind::omp_task, "omp_task", "task", "task", "task", "", SiteClass::interval},
    {SiteKind::omp_scope, "omp_scope", "scope", "scope", "scope", "", SiteClass::interval},
    {SiteKind::omp_barrier, "omp_barrier", "barrier", "barrier", "barrier", "", SiteClass::openmp_operation},
    {SiteKind::omp_implicit_barrier, "omp_implicit_barrier", "implicit barrier", "implicit barrier",
     "implicit barrier", "", SiteClass::openmp_operation},
    {SiteKind::omp_join_barrier, "omp_join_barrier", "implicit barrier", "join barrier", "implicit barrier",
     "", SiteClass::openmp_operation},
    {SiteKind::omp_implementation_barrier, "omp_implementation_barrier", "runtime barrier", "runtime barrier",
     "barrier (runtime)", "", SiteClass::openmp_operation},
    {SiteKind::omp_taskwait, "omp_taskwait", "taskwait", "taskwait", "taskwait", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_taskgroup, "omp_taskgroup", "taskgroup", "taskgroup", "taskgroup", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_reduction, "omp_reduction", "reduction", "reduction", "reduction", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_critical, "omp_critical", "critical", "critical", "critical", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_lock, "omp_lock", "lock", "lock", "lock", "", SiteClass::openmp_operation},
    {SiteKind::omp_nest_lock, "omp_nest_lock", "nest lock", "nested lock", "nest lock", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_ordered, "omp_ordered", "ordered", "ordered", "ordered", "", SiteClass::openmp_operation},
    {SiteKind::omp_atomic, "omp_atomic", "atomic", "atomic", "atomic", "", SiteClass::openmp_operation},
    {SiteKind::omp_flush, "omp_flush", "flush", "flush", "flush", "", SiteClass::openmp_operation},
    {SiteKind::omp_task_create, "omp_task_create", "task creation", "task creation", "task creation", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_lock_init, "omp_lock_init", "lock init", "lock init", "lock init", "",
     SiteClass::openmp_operation},
    {SiteKind::omp_lock_destroy, "omp_lock_destroy", "lock destroy", "lock destroy", "lock destroy", "",
     SiteClass::openmp_operation},
    {SiteKind::mpi_send, "mpi_send", "MPI send", "MPI send", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_recv, "mpi_recv", "MPI receive", "MPI receive", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_sendrecv, "mpi_sendrecv", "MPI send-receive", "MPI send-receive", "", "",
     SiteClass::point_to_point},
    {SiteKind::mpi_isend, "mpi_isend", "MPI non-blocking send", "MPI non-blocking send", "", "",
     SiteClass::point_to_point},
    {SiteKind::mpi_irecv, "mpi_irecv", "MPI non-blocking receive", "MPI non-blocking receive", "", "",
     SiteClass::point_to_point},
    {SiteKind::mpi_start, "mpi_start", "MPI start", "MPI start", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_wait, "mpi_wait", "MPI wait", "MPI wait", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_test, "mpi_test", "MPI test", "MPI test", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_probe, "mpi_probe", "MPI probe", "MPI probe", "", "", SiteClass::point_to_point},
    {SiteKind::mpi_barrier, "mpi_barrier", "MPI barrier", "MPI barrier", "", "", SiteClass::barrier},
    {SiteKind::mpi_broadcast, "mpi_broadcast", "MPI broadcast", "MPI broadcast", "", "",
     SiteClass::broadcast},
    {SiteKind::mpi_reduction, "mpi_reduction", "MPI reduction", "MPI reduction", "", "",
     SiteClass::reduction},
    {SiteKind::mpi_all_to_all, "mpi_all_to_all", "MPI all-to-all", "MPI all-to-all", "", "",
     SiteClass::all_to_all},
    {SiteKind::mpi_gather_scatter, "mpi_gather_scatter", "MPI gather/scatter", "MPI gather-scatter", "", "",
     SiteClass::gather_scatter},
    {SiteKind::mpi_one_sided, "mpi_one_sided", "MPI one-sided", "MPI one-sided", "", "",
     SiteClass::one_sided},
    {SiteKind::mpi_one_sided_sync, "mpi_one_sided_sync", "MPI one-sided synchronization",
     "MPI one-sided sync", "", "", SiteClass::one_sided},
    {SiteKind::mpi_io, "mpi_io", "MPI I/O", "MPI I/O", "", "", SiteClass::io},
    {SiteKind::mpi_management, "mpi_management", "MPI management", "MPI management", "", "",
     SiteClass::management},
    {SiteKind::shmem_put, "shmem_put", "SHMEM put", "SHMEM put", "", "", SiteClass::put},
    {SiteKind::shmem_get, "shmem_get", "SHMEM get", "SHMEM get", "", "", SiteClass::get},
    {SiteKind::shmem_put_nbi, "shmem_put_nbi", "SHMEM non-blocking put", "SHMEM non-blocking put", "", "",
     SiteClass::put},
    {SiteKind::shmem_get_nbi, "shmem_get_nbi", "SHMEM non-blocking get", "SHMEM non-blocking get", "", "",
     SiteClass::get},
    {SiteKind::shmem_atomic, "shmem_atomic", "SHMEM atomic", "SHMEM atomic", "", "", SiteClass::atomic},
    {SiteKind::shmem_barrier, "shmem_barrier", "SHMEM barrier", "SHMEM barrier", "", "", SiteClass::barrier},
    {SiteKind::shmem_broadcast, "shmem_broadcast", "SHMEM broadcast", "SHMEM broadcast", "", "",
     SiteClass::broadcast},
    {SiteKind::shmem_reduction, "shmem_reduction", "SHMEM reduction", "SHMEM reduction", "", "",
     SiteClass::reduction},
    {SiteKind::shmem_all_to_all, "shmem_all_to_all", "SHMEM all-to-all", "SHMEM all-to-all", "", "",
     SiteClass::all_to_all},
    {SiteKind::shmem_gather_scatter, "shmem_gather_scatter", "SHMEM collect", "SHMEM collect", "", "",
     SiteClass::gather_scatter},
    {SiteKind::shmem_memory_sync, "shmem_memory_sync", "SHMEM fence/quiet", "SHMEM fence/quiet", "", "",
     SiteClass::memory_sync},
    {SiteKind::shmem_lock, "shmem_lock", "SHMEM lock", "SHMEM lock", "", "", SiteClass::lock},
    {SiteKind::shmem_point_sync, "shmem_point_sync", "SHMEM wait", "SHMEM wait", "", "",
     SiteClass::point_sync},
    {SiteKind::shmem_management, "shmem_management", "SHMEM management", "SHMEM management", "", "",
     SiteClass::management},
    {SiteKind::upc_put, "upc_put", "UPC put", "UPC put", "", "", SiteClass::put},
    {SiteKind::upc_get, "upc_get", "UPC get", "UPC get", "", "", SiteClass::get},
    {SiteKind::upc_memcpy, "upc_memcpy", "UPC shared copy", "UPC memcpy", "", "", SiteClass::put},
    {SiteKind::upc_nb_sync, "upc_nb_sync", "UPC non-blocking sync", "UPC non-blocking sync", "", "",
     SiteClass::memory_sync},
    {SiteKind::upc_fence, "upc_fence", "UPC fence", "UPC fence", "", "", SiteClass::memory_sync},
    {SiteKind::upc_notify, "upc_notify", "UPC barrier notify", "UPC notify", "", "", SiteClass::barrier},
    {SiteKind::upc_wait, "upc_wait", "UPC barrier wait", "UPC wait", "", "", SiteClass::barrier},
    {SiteKind::upc_barrier, "upc_barrier", "UPC barrier", "UPC barrier", "", "", SiteClass::barrier},
    {SiteKind::upc_lock, "upc_lock", "UPC lock", "UPC lock", "", "", SiteClass::lock},
    {SiteKind::upc_unlock, "upc_unlock", "UPC unlock", "UPC unlock", "", "", SiteClass::lock},
    {SiteKind::upc_broadcast, "upc_broadcast", "UPC broadcast", "UPC broadcast", "", "",
     SiteClass::broadcast},
    {SiteKind::upc_reduction, "upc_reduction", "UPC reduction", "UPC reduction", "", "",
     SiteClass::reduction},
    {SiteKind::upc_all_to_all, "upc_all_to_all", "UPC all-to-all", "UPC all-to-all", "", "",
     SiteClass::all_to_all},
    {SiteKind::upc_gather_scatter, "upc_gather_scatter", "UPC gather/scatter", "UPC gather-scatter", "", "",
     SiteClass::gather_scatter},
    {SiteKind::upc_management, "upc_management", "UPC management", "UPC management", "", "",
     SiteClass::management},
};

// The row of a kind; null for a kind this version does not know (a later runtime's).
constexpr const SiteKindInfo* site_kind_info(std::uint32_t kind) {
  for (const SiteKindInfo& row : kSiteKinds)
    if (static_cast<std::uint32_t>(row.kind) == kind) return &row;
  return nullptr;
}
constexpr const SiteKindInfo* site_kind_info(SiteKind kind) {
  return site_kind_info(static_cast<std::uint32_t>(kind));
}

}  // namespace parperf::format
