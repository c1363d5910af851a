// What the runtime keeps for the MPI collector (libparperf-mpi.so, which reaches it through
// mpi_collector_abi.h): the process's MPI identity, the clock exchanges of MPI_Init and
// MPI_Finalize, and per communicator a bounded sample of collective instances, all written into
// the profile's `mpi` section.
//
// The instance sample keeps the profile's size independent of the iteration count while letting
// the analysis match instances across ranks: a communicator keeps every instance whose sequence
// number is a multiple of its stride; when the sample is full the stride doubles and the sample
// drops every other entry. Every member rank sees the same sequence numbers (MPI orders the
// collectives of a communicator), so every rank keeps the same instances without talking to the
// others, and each kept instance stands for `stride` of them.
#pragma once

#include <cstdint>

#include "format/record_writer.hpp"
#include "runtime/clock.hpp"
#include "runtime/file_sink.hpp"

namespace parperf::runtime {

// Writes the `mpi` section when the MPI collector ran (after the thread sections: it refers to
// their node indices).
void write_mpi_section(format::RecordWriter<FileSink>& writer, const TickConverter& clock) noexcept;

}  // namespace parperf::runtime
