/* The collector API: what libparperf.so offers the collectors that feed it (docs/collector_api.md).
 *
 * A collector translates one programming model into a few calls of this API: it records finished
 * operations at code sites, tells the process's identity once it knows it, may end the run early,
 * and may write a section of its own into the profile. The core knows no collector by name: all
 * it knows of an operation is its site (a code address, a kind, a name), its times and its figures.
 * A collector that is its own shared library (it loads only into the programs that use its model)
 * calls these exported functions; one compiled into libparperf.so may use the same calls through
 * their C++ face, runtime/collector.hpp, which adds the interval stack at the collector's own time
 * stamps.
 *
 * Not a public API for programs: the names are exported because the collectors are separate
 * shared objects, and they change with the runtime (all libraries come from the same build).
 * Every function may be called from any thread; none allocates from the program's malloc. */
#ifndef PARPERF_COLLECTOR_API_H
#define PARPERF_COLLECTOR_API_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "parperf/parperf.h" /* PARPERF_API */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Measuring and the clock ---------------------------------------------------------------- */

/* 1 when the runtime is measuring this process (initialises it on first use), else 0. A collector
 * that gets 0 passes every call straight through; the answer does not change back to 1. */
PARPERF_API int parperf_collector_active(void);

/* The runtime's clock (TSC or CLOCK_MONOTONIC ticks): every time handed to the core is in these
 * ticks. ticks_per_ns is a rough figure (~1%) for thresholds and estimates, never for reported
 * times: the profile writer converts ticks with a calibration over the whole run. */
PARPERF_API uint64_t parperf_collector_now(void);
PARPERF_API double parperf_collector_ticks_per_ns(void);

/* ---- Operations ----------------------------------------------------------------------------- */

/* One finished operation: a synchronization, a communication, a call into a runtime. */
typedef struct parperf_operation {
  const char* name;      /* the site's name in reports (the function called): static storage */
  const void* address;   /* the code address that identifies the site (a return address into the
                            program); with `kind`, the same address is the same site */
  uint32_t kind;         /* format::SiteKind of the site */
  uint32_t communicator; /* the collector's communicator id + 1 (the one its section writes), 0 if none */
  uint64_t start;        /* ticks */
  uint64_t end;
  uint64_t wait;    /* part of the duration spent waiting before the operation proper (for a
                       partner, a lock, a message); clamped to the duration */
  uint64_t sync;    /* part spent waiting at its end (desynchronization); clamped likewise */
  uint64_t overlap; /* non-blocking work that ran while the caller computed */
  uint64_t bytes;   /* data moved, 0 if none */
  int64_t partner;  /* rank of the partner process, -1 if none */
  int64_t match;    /* pairs operations across processes in the event trace: a message's tag, a
                       collective's sequence number on its communicator; 0 if nothing */
} parperf_operation;

/* Where an operation was recorded: the thread, its interval and the site. Opaque; a collector may
 * keep it and, while writing its section, turn it into the indices the profile uses
 * (parperf_section_position). */
typedef struct parperf_position {
  const void* thread;
  const void* node;
  const void* site;
} parperf_position;

/* Records `operation` in the calling thread's innermost interval (statistics per site: count,
 * duration, wait, sync, bytes, partners, overlap, the last call's bounds). Returns 1 and fills
 * `position` (may be null) when it was recorded; 0 when it was not (not measuring, recording off,
 * an unmeasured thread, out of memory). */
PARPERF_API int parperf_collector_record(const parperf_operation* operation, parperf_position* position);

/* Adds `operation` to the event trace only, when one is recorded: a call whose statistics went into
 * another operation already, but which carried several messages (a wait for several requests that
 * completed several receives traces one operation per message after the first, each at the call's
 * end with no duration). Returns 1 when it was traced. */
PARPERF_API int parperf_collector_trace(const parperf_operation* operation);

/* ---- Operations at source positions ------------------------------------------------------- */

/* The site of `kind` named `name` at `file`:`line`, for a collector that is told where an operation
 * is in the source rather than given a code address (a compiler's tool interface, which passes the
 * file name and line of each event). Interned on first use by (name, kind, file, line): a hash
 * lookup under a lock and, the first time, a copy of the strings; keep the handle and reuse it. The
 * handle is an ordinary annotation site: with an interval kind, parperf_interval_begin/end enter
 * and leave it. `file` may be null. Null when the runtime is not measuring or memory is exhausted. */
PARPERF_API parperf_site* parperf_collector_source_site(const char* name, uint32_t kind, const char* file,
                                                        int line);

/* The site of `kind` at the code address `address` (a function's entry, for the compiler's function
 * instrumentation), for an interval entered and left through parperf_interval_begin/end. Created on
 * first use (one dladdr; `name`, in static storage, is its name until the analysis symbolizes the
 * address into the function, file and line); a lock-free lookup afterwards. Null when `address` is
 * null, the runtime is not measuring, or the table of code sites is full. */
PARPERF_API parperf_site* parperf_collector_code_site(const void* address, uint32_t kind, const char* name);

/* parperf_collector_record for an operation at a source site: `operation`'s name, address and kind
 * are not read (the site has them). */
PARPERF_API int parperf_collector_record_at(parperf_site* site, const parperf_operation* operation,
                                            parperf_position* position);

/* ---- User events ---------------------------------------------------------------------------- */

/* A user event (an id from parperf_event_create) whose description's arguments the collector holds
 * in a va_list (a tool interface that hands them on so): phase 0 = start, 1 = end, 2 = atomic, as
 * parperf_event_record. `args` is consumed for a start or an atomic event. */
PARPERF_API void parperf_collector_user_event(unsigned event, int phase, va_list* args);

/* ---- The process ---------------------------------------------------------------------------- */

/* The process's rank and the number of processes of the job, once the collector knows them (they
 * replace what the launcher's environment said; the profile's file name follows the rank). */
PARPERF_API void parperf_collector_set_process(int64_t rank, int64_t world_size);

/* Threads whose start routine lies in a library whose file name begins with one of `prefixes` (a
 * null-terminated array in static storage, e.g. {"libfoo", "mca_", NULL}) belong to the
 * collector's runtime, not to the program: they are never registered, so they never show up as
 * processors idling through the run. Register before that runtime can start threads (before its
 * initialisation call); at most a few lists per process. Returns 0 when the table is full. */
PARPERF_API int parperf_collector_foreign_threads(const char* const* prefixes);

/* Ends the run now, writing the final profile (the job is about to be killed: an abort call).
 * `end_reason` is a format::EndReason other than `flush` (a collector's own reason, such as the
 * abort call of its programming model); `code` (< 65536) goes where a fatal signal's number goes. Later calls
 * are ignored. */
PARPERF_API void parperf_collector_end_run(uint32_t end_reason, int code);

/* The model's library has loaded code of its own (plug-in components, with dlopen, in its
 * initialisation): the sampler's stack walk learns where it and its unwind tables are. Not from a
 * signal handler. */
PARPERF_API void parperf_collector_code_loaded(void);

/* What the process is doing, apart from the program's work: the model's start-up (its
 * initialisation call, with the components it loads and the exchanges it makes) or its shut-down
 * (its finalisation call). Samples taken meanwhile, on every thread of the program (the calling
 * thread, a thread the program started before, a worker waiting in its runtime's pool), are counted
 * apart, per thread, and walked into no call path: they are not the program's time, as the
 * intervals leave those calls out too. Call it with PARPERF_PROCESS_STARTING_UP or
 * PARPERF_PROCESS_SHUTTING_DOWN before the call, with PARPERF_PROCESS_RUNNING after it. One relaxed
 * store into process-wide state: cheap, async-signal-safe, from any thread. */
#define PARPERF_PROCESS_RUNNING 0u
#define PARPERF_PROCESS_STARTING_UP 1u
#define PARPERF_PROCESS_SHUTTING_DOWN 2u
PARPERF_API void parperf_collector_process_phase(uint32_t phase);

/* ---- A section of the collector's own in the profile ----------------------------------------- */

typedef struct parperf_section_writer parperf_section_writer;

/* Writes the section's records through `writer`. Called by the profile writer, possibly from a
 * fatal-signal handler or while the program runs on: async-signal-safe, no allocation, no lock,
 * reads what the collector recorded without waiting for it. */
typedef void (*parperf_section_callback)(parperf_section_writer* writer, void* context);

/* From now on every profile has a section of `section_type` (format::SectionType) written by
 * `write`: after the thread sections (its records may refer to their threads and nodes), before
 * the sites. Sections appear in the order they were registered. Returns 0 when the table is full. */
PARPERF_API int parperf_collector_register_section(uint32_t section_type, parperf_section_callback write,
                                                   void* context);

/* Inside the callback: appends a record's bytes (format/record_writer.hpp serialises records; a
 * RecordWriter over a sink that calls this writes them exactly as the core would). */
PARPERF_API void parperf_section_write(parperf_section_writer* writer, const void* bytes, size_t size);

/* Inside the callback: a tick time stamp as nanoseconds since the run's origin, as the profile
 * states time stamps (with the test clock skew, if any), and a duration in ticks as nanoseconds. */
PARPERF_API uint64_t parperf_section_time_ns(const parperf_section_writer* writer, uint64_t ticks);
PARPERF_API uint64_t parperf_section_duration_ns(const parperf_section_writer* writer, uint64_t ticks);

/* Inside the callback: the indices a kept position has in this profile (thread index, node index
 * within its thread section, site id); the node index is 0xffffffff when the node is not known. */
typedef struct parperf_written_position {
  uint32_t thread;
  uint32_t node;
  uint32_t site;
} parperf_written_position;
PARPERF_API parperf_written_position parperf_section_position(const parperf_section_writer* writer,
                                                              const parperf_position* position);

#ifdef __cplusplus
}
#endif

#endif
