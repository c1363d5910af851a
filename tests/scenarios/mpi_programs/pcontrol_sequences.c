/* Every short sequence of interval begins, ends and MPI_Pcontrol switches gives a readable profile.
 *
 * Usage: pcontrol_sequences   on N ranks (the test runs 2), under `parperf run`
 *
 * Runs every well-nested sequence of up to MAX_STEPS steps of {begin A, begin B, end,
 * MPI_Pcontrol(0), MPI_Pcontrol(1)}, each with its intervals at the sequence's number as their value,
 * recording on before each sequence. After every step all ranks meet in MPI_Barrier, so MPI events
 * are recorded inside intervals, also inside one that ends during a pause.
 *
 * The rule (docs/runtime.md, "Pausing"): an interval begun while recording is on is recorded whole,
 * even when it ends during a pause; one begun while recording is off, or inside such an interval, is
 * not recorded. The program counts by that rule the distinct intervals (path of A and B from the
 * program, and value) the profile must hold, and prints on rank 0
 * "pcontrol_sequences: S sequences, R recorded intervals".
 *
 * The annotation API comes from the runtime `parperf run` preloads (weak references: nothing of
 * parperf is linked in, as with every MPI test program). */
#include <mpi.h>
#include <stdio.h>

#include "parperf/parperf.h"

#pragma weak parperf_interval_begin
#pragma weak parperf_interval_end

enum { MAX_STEPS = 5, MAX_DEPTH = MAX_STEPS };
enum step { BEGIN_A, BEGIN_B, END, OFF, ON, STEP_KINDS };

static parperf_site site_a = PARPERF_SITE_INIT("pause_a", PARPERF_KIND_USER);
static parperf_site site_b = PARPERF_SITE_INIT("pause_b", PARPERF_KIND_USER);

static long sequences;
static long recorded;

/* Runs one sequence (steps[0..length)) at `value`; counts its recorded intervals. A recorded
 * interval is new when no earlier entry of the same path was recorded in this sequence. */
static void run(const enum step* steps, int length, long value) {
  char open_names[MAX_DEPTH];
  int open_recorded[MAX_DEPTH];
  int depth = 0;
  int recording = 1;
  /* Recorded paths of this sequence, as strings of A and B (at most MAX_STEPS / 2 ends). */
  char seen[MAX_STEPS][MAX_DEPTH + 1];
  int seen_count = 0;
  for (int i = 0; i < length; ++i) {
    if (steps[i] == BEGIN_A || steps[i] == BEGIN_B) {
      const char name = steps[i] == BEGIN_A ? 'A' : 'B';
      parperf_interval_begin(name == 'A' ? &site_a : &site_b, value);
      open_names[depth] = name;
      open_recorded[depth] = recording && (depth == 0 || open_recorded[depth - 1]);
      ++depth;
    } else if (steps[i] == END) {
      --depth;
      parperf_interval_end(open_names[depth] == 'A' ? &site_a : &site_b);
      if (open_recorded[depth]) {
        char path[MAX_DEPTH + 1];
        for (int d = 0; d <= depth; ++d) path[d] = open_names[d];
        path[depth + 1] = '\0';
        int known = 0;
        for (int s = 0; s < seen_count; ++s) known = known || __builtin_strcmp(seen[s], path) == 0;
        if (!known) {
          __builtin_strcpy(seen[seen_count++], path);
          ++recorded;
        }
      }
    } else {
      recording = steps[i] == ON;
      MPI_Pcontrol(recording);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Pcontrol(1);
}

/* Every well-nested continuation of steps[0..length) with `open` intervals open. */
static void enumerate(enum step* steps, int length, int open) {
  if (length > 0 && open == 0) run(steps, length, sequences++);
  if (length == MAX_STEPS) return;
  for (int kind = 0; kind < STEP_KINDS; ++kind) {
    const int now_open = open + (kind == BEGIN_A || kind == BEGIN_B) - (kind == END);
    if (now_open < 0 || now_open > MAX_STEPS - length - 1) continue; /* must be able to close */
    steps[length] = (enum step)kind;
    enumerate(steps, length + 1, now_open);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!parperf_interval_begin || !parperf_interval_end) {
    if (rank == 0) fprintf(stderr, "pcontrol_sequences: run it under parperf run (no annotation API)\n");
    MPI_Finalize();
    return 2;
  }
  enum step steps[MAX_STEPS];
  enumerate(steps, 0, 0);
  if (rank == 0) printf("pcontrol_sequences: %ld sequences, %ld recorded intervals\n", sequences, recorded);
  MPI_Finalize();
  return 0;
}
