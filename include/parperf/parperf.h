/*
 * parperf annotation API (C ABI).
 *
 * Usable from C, C++ (see parperf.hpp for RAII scopes) and Fortran (parperf.f90).
 * Link with -lparperf, or leave the program unlinked and run it under `parperf run`,
 * which preloads the runtime; every function here is then a no-op-free real call.
 *
 * Hot path: an interval site is a static descriptor living in the program's data segment;
 * the runtime identifies it by its address, so entering and leaving an interval hashes no
 * string and allocates nothing once the interval has been seen on a thread.
 */
#ifndef PARPERF_PARPERF_H
#define PARPERF_PARPERF_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define PARPERF_API __attribute__((visibility("default")))
#define PARPERF_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define PARPERF_API
#define PARPERF_PRINTF_LIKE(fmt_index, first_arg)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Interval kinds as seen in reports. The values are part of the file format. */
typedef enum parperf_kind {
  PARPERF_KIND_PROGRAM = 0,       /* the root interval; created by the runtime itself */
  PARPERF_KIND_USER = 1,          /* a named user interval */
  PARPERF_KIND_PARALLEL_LOOP = 2, /* a loop whose iterations run in parallel */
  PARPERF_KIND_SEQUENTIAL_LOOP = 3,
  PARPERF_KIND_BRANCH = 4 /* one branch of a loop body (an if or case arm): the loop's child interval;
                             the report gives each its frequency and mean cost */
} parperf_kind;

/*
 * A static interval site. Declare it `static` and zero-initialise the runtime-owned fields
 * (the PARPERF_SITE_INIT macro does both); the runtime caches its registration in them. A site
 * on a stack or the heap is copied when first entered, with a warning (docs/runtime.md).
 */
typedef struct parperf_site {
  const char* name;
  const char* file;
  int32_t line;
  int32_t kind;            /* a parperf_kind */
  volatile int32_t state_; /* runtime-owned: registration and filter state */
  volatile uint32_t id_;   /* runtime-owned: process-wide site number */
} parperf_site;

#define PARPERF_SITE_INIT(name, kind) \
  { (name), __FILE__, __LINE__, (kind), 0, 0 }

/* Enter the interval `site` with the expression value `value` (0 when it has none): the same site
 * with different values is a different interval. Intervals nest strictly per thread. */
PARPERF_API void parperf_interval_begin(parperf_site* site, int64_t value);
/* Leave the innermost interval, which must have been entered through `site`. */
PARPERF_API void parperf_interval_end(parperf_site* site);

/* Dynamic-name variants for names built at run time: the name is copied and interned on first use
 * (one hash lookup per call, no allocation afterwards). `file` may be NULL. */
PARPERF_API void parperf_interval_begin_named(const char* name, int kind, const char* file, int line,
                                              int64_t value);
PARPERF_API void parperf_interval_end_named(const char* name);
/* Length-delimited variants of the two above for languages without NUL-terminated strings
 * (Fortran); `file` may be NULL with `file_len` 0. */
PARPERF_API void parperf_interval_begin_n(const char* name, size_t name_len, int kind, const char* file,
                                          size_t file_len, int line, int64_t value);
PARPERF_API void parperf_interval_end_n(const char* name, size_t name_len);

/* Marks the beginning of one iteration of the innermost (loop) interval. The end of the interval
 * ends the last iteration. Iteration times feed loop-balance analysis. */
PARPERF_API void parperf_loop_iteration(void);

/* User events, in the style of the pupc API: create once with a name and a printf-style
 * description, then record start/end pairs or atomic occurrences with the description's
 * arguments. Returns 0 when the event table is full. */
PARPERF_API unsigned parperf_event_create(const char* name, const char* description_format);
PARPERF_API void parperf_event_start(unsigned event, ...);
PARPERF_API void parperf_event_end(unsigned event, ...);
PARPERF_API void parperf_event_atomic(unsigned event, ...);
/* For languages without C varargs (Fortran): phase 0 = start, 1 = end, 2 = atomic; the
 * description is kept unformatted. */
PARPERF_API void parperf_event_record(unsigned event, int phase);

/* Stops (on = 0) and resumes (on != 0) recording for the whole process. Intervals entered while
 * recording is off are not recorded, but begin/end pairs stay matched across a switch; time while
 * recording is off counts in no interval (the `program` interval included). MPI_Pcontrol and
 * omp_control_tool switch recording the same way; after omp_control_tool_end it stays off. */
PARPERF_API void parperf_control(int on);
/* Returns non-zero when recording is on. */
PARPERF_API int parperf_is_recording(void);

/* Writes the profile so far to the run directory (replacing the previous write). */
PARPERF_API void parperf_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* PARPERF_PARPERF_H */
