/*
 * The GASP tool interface, version 1.5 (Su, Leko, George, Bonachea et al., "GASP: A Performance
 * Analysis Tool Interface for Global Address Space Programming Models", specification 1.5), as
 * parperf's GASP tool implements it: libparperf-gasp.so defines the gasp_* functions a GASP-enabled
 * compiler or runtime calls (docs/pgas.md).
 *
 * This header is written from the specification's definitions: the functions, the models, the event
 * types and, for UPC (the specification's gasp_upc.h), the event tags with the variadic arguments
 * each event carries. The specification leaves the tags' numbers to each implementation; these are
 * GCC UPC's (libupc's gasp_upc.h), including the tags GCC UPC leaves out of its build (fences,
 * non-blocking transfers, caches, collectives). A compiler that numbers them otherwise needs a tool
 * built against its own header.
 */
#ifndef PARPERF_GASP_H
#define PARPERF_GASP_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define PARPERF_GASP_API __attribute__((visibility("default")))
#else
#define PARPERF_GASP_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define GASP_VERSION 20060914

/* The programming model of the code that calls the tool. parperf knows UPC's events. */
typedef enum {
  GASP_MODEL_UPC,
  GASP_MODEL_TITANIUM,
  GASP_MODEL_CAF,
  GASP_MODEL_MPI,
  GASP_MODEL_SHMEM
} gasp_model_t;

/* An event is the start or the end of something that lasts, or something instantaneous. */
typedef enum { GASP_START, GASP_END, GASP_ATOMIC } gasp_evttype_t;

/* The tool's state for one thread of the program: gasp_init returns it, every other call gets it. */
struct _gasp_context_S;
typedef struct _gasp_context_S* gasp_context_t;

/* Called once by each thread (UPC thread) before any other call; may read and change the command line. */
PARPERF_GASP_API gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv);

/* An event `evttag` (a tag below, or one from gasp_create_event) of type `evttype` at
 * `filename`:`linenum`:`colnum` (filename may be null, the numbers 0), followed by the event's
 * arguments as the tables below give them. */
PARPERF_GASP_API void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                                        const char* filename, int linenum, int colnum, ...);
PARPERF_GASP_API void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                                          const char* filename, int linenum, int colnum, va_list varargs);

/* Turns measurement on (on != 0) or off; returns whether it was on. */
PARPERF_GASP_API int gasp_control(gasp_context_t context, int on);

/* A user event (pupc_create_event): `desc` is a printf-style format of the arguments its start and
 * atomic events carry. Returns its tag, in GASP_UPC_USEREVT_START..GASP_UPC_USEREVT_END, or 0 when
 * none is left. */
PARPERF_GASP_API unsigned int gasp_create_event(gasp_context_t context, const char* name, const char* desc);

/* ---- UPC (the specification's gasp_upc.h) ------------------------------------------------------ */

#define GASP_UPC_VERSION 40302

/* Opaque to the tool: a pointer-to-shared, a lock, a non-blocking operation's handle. */
typedef void gasp_upc_PTS_t;
typedef void gasp_upc_lock_t;
typedef void* gasp_upc_nb_handle_t;
#define GASP_NB_TRIVIAL ((gasp_upc_nb_handle_t)0)

/* The element type of a reduction. */
typedef enum {
  GASP_UPC_REDUCTION_C,
  GASP_UPC_REDUCTION_UC,
  GASP_UPC_REDUCTION_S,
  GASP_UPC_REDUCTION_US,
  GASP_UPC_REDUCTION_I,
  GASP_UPC_REDUCTION_UI,
  GASP_UPC_REDUCTION_L,
  GASP_UPC_REDUCTION_UL,
  GASP_UPC_REDUCTION_F,
  GASP_UPC_REDUCTION_D,
  GASP_UPC_REDUCTION_LD
} gasp_upc_reduction_t;

/* Tag                            type         arguments after colnum
 * GASP_C_FUNC                    start, end   const char* funcsig
 * GASP_C_MALLOC                  start, end   size_t nbytes
 * GASP_C_REALLOC                 start, end   void* ptr, size_t size
 * GASP_C_FREE                    start, end   void* ptr
 * GASP_UPC_COLLECTIVE_EXIT       start, end   int status
 * GASP_UPC_NONCOLLECTIVE_EXIT    atomic       int status
 * GASP_UPC_NOTIFY, _WAIT,
 *   _BARRIER                     start, end   int named, int expr
 * GASP_UPC_FENCE, GASP_UPC_FORALL start, end  (none)
 * GASP_UPC_GLOBAL_ALLOC,
 *   GASP_UPC_ALL_ALLOC           start        size_t nblocks, size_t nbytes
 *                                end          size_t nblocks, size_t nbytes, gasp_upc_PTS_t* newshrd_ptr
 * GASP_UPC_ALLOC                 start        size_t nbytes
 *                                end          size_t nbytes, gasp_upc_PTS_t* newshrd_ptr
 * GASP_UPC_FREE                  start, end   gasp_upc_PTS_t* shrd_ptr
 * GASP_UPC_GLOBAL_LOCK_ALLOC,
 *   GASP_UPC_ALL_LOCK_ALLOC      start        (none)
 *                                end          gasp_upc_lock_t* lck
 * GASP_UPC_LOCK_FREE, _LOCK,
 *   _UNLOCK                      start, end   gasp_upc_lock_t* lck
 * GASP_UPC_LOCK_ATTEMPT          start        gasp_upc_lock_t* lck
 *                                end          gasp_upc_lock_t* lck, int result
 * GASP_UPC_MEMCPY                start, end   gasp_upc_PTS_t* dst, gasp_upc_PTS_t* src, size_t n
 * GASP_UPC_MEMGET                start, end   void* dst, gasp_upc_PTS_t* src, size_t n
 * GASP_UPC_MEMPUT                start, end   gasp_upc_PTS_t* dst, void* src, size_t n
 * GASP_UPC_MEMSET                start, end   gasp_upc_PTS_t* dst, int c, size_t n
 * GASP_UPC_GET                   start, end   int is_relaxed, void* dst, gasp_upc_PTS_t* src, size_t n
 * GASP_UPC_PUT                   start, end   int is_relaxed, gasp_upc_PTS_t* dst, void* src, size_t n
 * GASP_UPC_NB_GET_INIT           start        int is_relaxed, void* dst, gasp_upc_PTS_t* src, size_t n
 *                                end          the same, then gasp_upc_nb_handle_t handle
 * GASP_UPC_NB_PUT_INIT           start        int is_relaxed, gasp_upc_PTS_t* dst, void* src, size_t n
 *                                end          the same, then gasp_upc_nb_handle_t handle
 * GASP_UPC_NB_GET_DATA, _PUT_DATA,
 *   GASP_UPC_NB_SYNC             start, end   gasp_upc_nb_handle_t handle
 * GASP_UPC_CACHE_MISS            atomic       size_t n, size_t n_lines
 * GASP_UPC_CACHE_HIT             atomic       size_t n
 * GASP_UPC_CACHE_INVALIDATE      atomic       size_t n_dirty
 * GASP_UPC_ALL_BROADCAST, _SCATTER, _GATHER, _GATHER_ALL,
 *   _EXCHANGE                    start, end   gasp_upc_PTS_t* dst, gasp_upc_PTS_t* src, size_t nbytes,
 *                                             int upc_flags
 * GASP_UPC_ALL_PERMUTE           start, end   gasp_upc_PTS_t* dst, gasp_upc_PTS_t* src,
 *                                             gasp_upc_PTS_t* perm, size_t nbytes, int upc_flags
 * GASP_UPC_ALL_REDUCE,
 *   GASP_UPC_ALL_PREFIX_REDUCE   start, end   gasp_upc_PTS_t* dst, gasp_upc_PTS_t* src, int upc_op,
 *                                             size_t nelems, size_t blk_size, void* func,
 *                                             int upc_flags, gasp_upc_reduction_t type
 * user events (gasp_create_event): start, atomic: the arguments of the event's description; end: any */
#define GASP_UPC_EVT_NONE 0
#define GASP_C_FUNC 1
#define GASP_C_MALLOC 2
#define GASP_C_REALLOC 3
#define GASP_C_FREE 4
#define GASP_UPC_COLLECTIVE_EXIT 5
#define GASP_UPC_NONCOLLECTIVE_EXIT 6
#define GASP_UPC_NOTIFY 7
#define GASP_UPC_WAIT 8
#define GASP_UPC_BARRIER 9
#define GASP_UPC_FENCE 10
#define GASP_UPC_FORALL 11
#define GASP_UPC_GLOBAL_ALLOC 12
#define GASP_UPC_ALL_ALLOC 13
#define GASP_UPC_ALLOC 14
#define GASP_UPC_FREE 15
#define GASP_UPC_GLOBAL_LOCK_ALLOC 16
#define GASP_UPC_ALL_LOCK_ALLOC 17
#define GASP_UPC_LOCK_FREE 18
#define GASP_UPC_LOCK 19
#define GASP_UPC_LOCK_ATTEMPT 20
#define GASP_UPC_UNLOCK 21
#define GASP_UPC_MEMCPY 22
#define GASP_UPC_MEMGET 23
#define GASP_UPC_MEMPUT 24
#define GASP_UPC_MEMSET 25
#define GASP_UPC_GET 26
#define GASP_UPC_PUT 27
#define GASP_UPC_NB_GET_INIT 28
#define GASP_UPC_NB_GET_DATA 29
#define GASP_UPC_NB_PUT_INIT 30
#define GASP_UPC_NB_PUT_DATA 31
#define GASP_UPC_NB_SYNC 32
#define GASP_UPC_CACHE_MISS 33
#define GASP_UPC_CACHE_HIT 34
#define GASP_UPC_CACHE_INVALIDATE 35
#define GASP_UPC_ALL_BROADCAST 36
#define GASP_UPC_ALL_SCATTER 37
#define GASP_UPC_ALL_GATHER 38
#define GASP_UPC_ALL_GATHER_ALL 39
#define GASP_UPC_ALL_EXCHANGE 40
#define GASP_UPC_ALL_PERMUTE 41
#define GASP_UPC_ALL_REDUCE 42
#define GASP_UPC_ALL_PREFIX_REDUCE 43
#define GASP_UPC_USEREVT_START 1000
#define GASP_UPC_USEREVT_END 1999

#ifdef __cplusplus
}
#endif

#endif /* PARPERF_GASP_H */
