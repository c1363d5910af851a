/* A minimal OMPT tool that counts the callbacks libomp delivers, for bench/openmp/overhead.sh: it
 * registers exactly the callbacks parperf's collector registers (src/runtime/openmp/ompt_tool.cpp),
 * does nothing in them but count, and prints the counts on stderr when libomp finalizes the tool:
 *   ompt callbacks: <total>
 *   ompt callback <name>: <count>      (one line per callback that came at least once)
 * Load it into an uninstrumented run with OMP_TOOL_LIBRARIES=<path>/libcallback_counter.so; the
 * overhead per callback is then the time parperf adds divided by the total. Keep the list in step
 * with ompt_tool.cpp.
 *
 * Counting is kept as cheap as a callback can be (each thread increments its own cache line, no
 * locked instruction), so a timed run with this tool shows what libomp's OMPT dispatch costs by
 * itself: the floor under any tool's overhead. */
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>

enum {
  kThreadBegin,
  kThreadEnd,
  kParallelBegin,
  kParallelEnd,
  kImplicitTask,
  kWork,
  kMasked,
  kDispatch,
  kSyncRegion,
  kSyncRegionWait,
  kReduction,
  kMutexAcquire,
  kMutexAcquired,
  kMutexReleased,
  kNestLock,
  kLockInit,
  kLockDestroy,
  kFlush,
  kTaskCreate,
  kTaskSchedule,
  kCallbackKinds
};

static const char* const kNames[kCallbackKinds] = {
    "thread_begin", "thread_end",    "parallel_begin", "parallel_end",   "implicit_task",
    "work",         "masked",        "dispatch",       "sync_region",    "sync_region_wait",
    "reduction",    "mutex_acquire", "mutex_acquired", "mutex_released", "nest_lock",
    "lock_init",    "lock_destroy",  "flush",          "task_create",    "task_schedule"};

/* A thread's counts, on cache lines of their own. Only the owning thread writes them (a plain
 * increment); finalize reads them all. Threads beyond kMaxSlots share the last slot and add
 * atomically. */
enum { kMaxSlots = 256 };
struct Slot {
  _Alignas(64) atomic_ullong counts[kCallbackKinds];
};
static struct Slot slots[kMaxSlots];
static atomic_int slots_taken;
static _Thread_local struct Slot* own_slot;
static _Thread_local int shared_slot;

static void count(int kind) {
  struct Slot* slot = own_slot;
  if (__builtin_expect(slot == NULL, 0)) {
    const int index = atomic_fetch_add_explicit(&slots_taken, 1, memory_order_relaxed);
    shared_slot = index >= kMaxSlots - 1;
    slot = own_slot = &slots[shared_slot ? kMaxSlots - 1 : index];
  }
  atomic_ullong* counter = &slot->counts[kind];
  if (__builtin_expect(shared_slot, 0))
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
  else
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* One function per callback, each with its OMPT signature (calling through a mismatched pointer
 * type would be undefined behaviour). */
static void on_thread_begin(ompt_thread_t type, ompt_data_t* thread) {
  (void)type, (void)thread;
  count(kThreadBegin);
}
static void on_thread_end(ompt_data_t* thread) {
  (void)thread;
  count(kThreadEnd);
}
static void on_parallel_begin(ompt_data_t* task, const ompt_frame_t* frame, ompt_data_t* parallel,
                              unsigned int requested, int flags, const void* codeptr) {
  (void)task, (void)frame, (void)parallel, (void)requested, (void)flags, (void)codeptr;
  count(kParallelBegin);
}
static void on_parallel_end(ompt_data_t* parallel, ompt_data_t* task, int flags, const void* codeptr) {
  (void)parallel, (void)task, (void)flags, (void)codeptr;
  count(kParallelEnd);
}
static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
                             unsigned int actual, unsigned int index, int flags) {
  (void)endpoint, (void)parallel, (void)task, (void)actual, (void)index, (void)flags;
  count(kImplicitTask);
}
static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                    ompt_data_t* task, uint64_t work_count, const void* codeptr) {
  (void)type, (void)endpoint, (void)parallel, (void)task, (void)work_count, (void)codeptr;
  count(kWork);
}
static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
                      const void* codeptr) {
  (void)endpoint, (void)parallel, (void)task, (void)codeptr;
  count(kMasked);
}
static void on_dispatch(ompt_data_t* parallel, ompt_data_t* task, ompt_dispatch_t kind,
                        ompt_data_t instance) {
  (void)parallel, (void)task, (void)kind, (void)instance;
  count(kDispatch);
}
static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                           ompt_data_t* task, const void* codeptr) {
  (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
  count(kSyncRegion);
}
static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t* parallel, ompt_data_t* task, const void* codeptr) {
  (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
  count(kSyncRegionWait);
}
static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                         ompt_data_t* task, const void* codeptr) {
  (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
  count(kReduction);
}
static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                             const void* codeptr) {
  (void)kind, (void)hint, (void)impl, (void)wait_id, (void)codeptr;
  count(kMutexAcquire);
}
static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  (void)kind, (void)wait_id, (void)codeptr;
  count(kMutexAcquired);
}
static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  (void)kind, (void)wait_id, (void)codeptr;
  count(kMutexReleased);
}
static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void* codeptr) {
  (void)endpoint, (void)wait_id, (void)codeptr;
  count(kNestLock);
}
static void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                         const void* codeptr) {
  (void)kind, (void)hint, (void)impl, (void)wait_id, (void)codeptr;
  count(kLockInit);
}
static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  (void)kind, (void)wait_id, (void)codeptr;
  count(kLockDestroy);
}
static void on_flush(ompt_data_t* thread, const void* codeptr) {
  (void)thread, (void)codeptr;
  count(kFlush);
}
static void on_task_create(ompt_data_t* task, const ompt_frame_t* frame, ompt_data_t* new_task, int flags,
                           int has_dependences, const void* codeptr) {
  (void)task, (void)frame, (void)new_task, (void)flags, (void)has_dependences, (void)codeptr;
  count(kTaskCreate);
}
static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  (void)prior, (void)status, (void)next;
  count(kTaskSchedule);
}

#define REGISTER(event, callback) set_callback(event, (ompt_callback_t)(callback))

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool) {
  (void)device, (void)tool;
  ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback) return 0;
  REGISTER(ompt_callback_thread_begin, on_thread_begin);
  REGISTER(ompt_callback_thread_end, on_thread_end);
  REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
  REGISTER(ompt_callback_parallel_end, on_parallel_end);
  REGISTER(ompt_callback_implicit_task, on_implicit_task);
  REGISTER(ompt_callback_work, on_work);
  REGISTER(ompt_callback_masked, on_masked);
  REGISTER(ompt_callback_dispatch, on_dispatch);
  REGISTER(ompt_callback_sync_region, on_sync_region);
  REGISTER(ompt_callback_sync_region_wait, on_sync_region_wait);
  REGISTER(ompt_callback_reduction, on_reduction);
  REGISTER(ompt_callback_mutex_acquire, on_mutex_acquire);
  REGISTER(ompt_callback_mutex_acquired, on_mutex_acquired);
  REGISTER(ompt_callback_mutex_released, on_mutex_released);
  REGISTER(ompt_callback_nest_lock, on_nest_lock);
  REGISTER(ompt_callback_lock_init, on_lock_init);
  REGISTER(ompt_callback_lock_destroy, on_lock_destroy);
  REGISTER(ompt_callback_flush, on_flush);
  REGISTER(ompt_callback_task_create, on_task_create);
  REGISTER(ompt_callback_task_schedule, on_task_schedule);
  return 1;
}

static void finalize(ompt_data_t* tool) {
  (void)tool;
  unsigned long long counts[kCallbackKinds] = {0};
  unsigned long long total = 0;
  for (int s = 0; s < kMaxSlots; ++s) {
    for (int k = 0; k < kCallbackKinds; ++k) {
      const unsigned long long n = atomic_load(&slots[s].counts[k]);
      counts[k] += n;
      total += n;
    }
  }
  fprintf(stderr, "ompt callbacks: %llu\n", total);
  for (int k = 0; k < kCallbackKinds; ++k)
    if (counts[k]) fprintf(stderr, "ompt callback %s: %llu\n", kNames[k], counts[k]);
}

__attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int omp_version, const char* runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {&initialize, &finalize, {0}};
  return &result;
}
