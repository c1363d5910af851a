/*
 * The pupc user API of the GASP 1.5 specification (section "User-visible pupc interface"), on top
 * of parperf's user events (parperf.h): a program written for a GASP tool's pupc events compiles
 * unchanged against this header and links -lparperf (or runs under `parperf run`).
 *
 *   unsigned int e = pupc_create_event("exchange", "step %d, %d bytes");
 *   pupc_event_start(e, step, bytes);   // the arguments fill in the description:
 *   ...                                 // `parperf trace` shows "step 3, 4096 bytes"
 *   pupc_event_end(e);
 *
 * Events nest per thread like intervals; an end without its start, or ends in another order than
 * the starts, are reported on stderr (once per event) and the run goes on. An end's arguments are
 * accepted and not read (the description is formatted at the start).
 *
 * A UPC compiler with GASP support ships its own pupc.h and turns these calls into GASP user
 * events (gasp.h): with it, parperf's GASP tool records the same events.
 */
#ifndef PARPERF_PUPC_H
#define PARPERF_PUPC_H

#include "parperf/parperf.h"

/* The specification's feature macro: the pupc interface is available. */
#ifndef __UPC_PUPC__
#define __UPC_PUPC__ 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Creates an event with a name and a printf-style description of the arguments its start (or
 * atomic occurrence) carries; returns its tag, or 0 when the event table is full. */
static inline unsigned int pupc_create_event(const char* name, const char* desc) {
  return parperf_event_create(name, desc);
}

/* Turns recording on (on != 0) or off for the whole process, as parperf_control; returns whether it
 * was on before the call. */
static inline int pupc_control(int on) {
  const int was_on = parperf_is_recording();
  parperf_control(on);
  return was_on;
}

#ifdef __cplusplus
}
#endif

/* pupc_event_start(tag, ...), pupc_event_end(tag, ...), pupc_event_atomic(tag, ...): variadic, so
 * they are the parperf functions themselves rather than wrappers. */
#define pupc_event_start parperf_event_start
#define pupc_event_end parperf_event_end
#define pupc_event_atomic parperf_event_atomic

#endif /* PARPERF_PUPC_H */
