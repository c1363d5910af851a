// Imports the plain-text memory trace format, for tracers that have no parperf writer of their own
// (a Pin tool, a DynamoRIO client, a simulator). The format, line by line:
//   # parperf-memory-trace v1     optional header; when present, the first line
//   # anything                     a comment; `#` also ends a record line early
//   T <thread>                     the thread of the records that follow (0 to 65535; 0 at the start)
//   L <address> <size> [<pc>]      a load
//   S <address> <size> [<pc>]      a store
// Fields are separated by spaces or tabs. Numbers are decimal, or hexadecimal with a 0x prefix.
// <size> is 1, 2, 4, 8 or 16 (a tracer splits wider accesses itself); <pc> is the absolute address
// of the instruction, 0 or absent when unknown. Blank lines are ignored. Records are in the order
// each thread made them; lines of different threads may interleave.
#pragma once

#include <istream>

#include "import/import_common.hpp"

namespace parperf::trace_import {

// Converts the text trace `in` into accesses of `writer` (the caller finishes the writer). Any line
// that breaks the format is an ImportError naming the line.
ImportStats import_text(std::istream& in, format::MemoryTraceWriter& writer, const ImportOptions& options);

}  // namespace parperf::trace_import
