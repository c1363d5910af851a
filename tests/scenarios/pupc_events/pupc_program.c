/* Ground truth by construction for pupc_events_test.cpp: the pupc API of GASP 1.5 as a program
 * written for it uses it.
 *
 * STEPS steps, each: the event "solve" ("solve of step %d with %s": step, "jacobi") holds SOLVE_MS ms
 * of its own and the nested event "exchange" ("exchange of %d bytes to thread %d": 1024 * (step + 1),
 * step % 4) of EXCHANGE_MS ms; then one atomic "checkpoint" ("checkpoint %d": step). Then, with
 * recording switched off by pupc_control(0), HIDDEN more "solve" events that must count nowhere;
 * pupc_control(1) must say recording was off, and it prints "control was 0".
 *
 * Usage: pupc_program [misnest]. With "misnest" it also ends "solve" while "exchange", started
 * inside it, is open, and ends "checkpoint", which never started: both are reported. */
#include <stdio.h>
#include <string.h>

#include "common/burn.h"
#include "parperf/pupc.h"

enum { STEPS = 20, SOLVE_MS = 2, EXCHANGE_MS = 3, HIDDEN = 5 };

int main(int argc, char** argv) {
  const int misnest = argc > 1 && strcmp(argv[1], "misnest") == 0;
#if !__UPC_PUPC__
#error "pupc.h must define __UPC_PUPC__"
#endif
  const unsigned int solve = pupc_create_event("solve", "solve of step %d with %s");
  const unsigned int exchange = pupc_create_event("exchange", "exchange of %d bytes to thread %d");
  const unsigned int checkpoint = pupc_create_event("checkpoint", "checkpoint %d");
  if (!solve || !exchange || !checkpoint) return 2;

  for (int step = 0; step < STEPS; ++step) {
    pupc_event_start(solve, step, "jacobi");
    sleep_for_ms(SOLVE_MS);
    pupc_event_start(exchange, 1024 * (step + 1), step % 4);
    sleep_for_ms(EXCHANGE_MS);
    pupc_event_end(exchange);
    pupc_event_end(solve);
    pupc_event_atomic(checkpoint, step);
  }

  const int was_on = pupc_control(0);
  for (int i = 0; i < HIDDEN; ++i) {
    pupc_event_start(solve, -1, "hidden");
    pupc_event_end(solve);
  }
  const int was_off = pupc_control(1);
  printf("control was %d %d\n", was_on, was_off);

  if (misnest) {
    pupc_event_start(solve, STEPS, "misnested");
    pupc_event_start(exchange, 1, 1);
    pupc_event_end(solve); /* wrong order: exchange is still open */
    pupc_event_end(exchange);
    pupc_event_end(checkpoint); /* never started */
  }
  print_sleep_overshoot();
  return 0;
}
