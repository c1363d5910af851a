// The heap of a process that analyses traces (the parperf command, parperf-report-mpi). The trace
// analysis allocates arrays of tens of bytes an event and frees them again many times over: the
// graph's building, its four replays (critical path, POP's two, what-if), the delay costs. glibc's
// malloc maps each large one anew and unmaps it when freed, and trims the top of its heap, so every
// such array is page-faulted in and cleared by the kernel again: 15-20 % of the analysis's time
// (docs/efficiency-model.md, "Scale"). Kept in the heap, freed memory is reused instead; the
// process's memory stays at its peak until it exits, which a command that exits after its report
// can afford. Process-wide: a program's main asks for it, never the analysis itself (a program that
// links the analysis keeps its own allocator's settings). Settings of mallopt do not survive exec:
// the programs parperf runs have their own.
#pragma once

namespace parperf::analysis {

// Keeps blocks up to 32 MiB (malloc's largest heap block) in the heap and never trims it below
// 1 GiB free: freed memory is reused, not returned and faulted in again; and one arena for all the
// process's threads, so that a block one thread freed is reused by the other. Idempotent.
void keep_freed_memory_for_reuse();

}  // namespace parperf::analysis
