// Imports the memory trace of valgrind's lackey tool:
//   valgrind --tool=lackey --trace-mem=yes --log-file=prog.lackey ./prog
// Lines (docs: the "lackey import" section of the memory trace documentation):
//   "I  0400d7d4,8"   an instruction fetch: its address is the pc of the data accesses that follow
//   " L 0421f9b8,8"   a load, " S 7ff000398,8" a store, " M 0421fa00,4" a modify (a load, then a store)
// Every other line (valgrind's "==pid==" messages, the program's own output) is skipped; the
// "==pid==" lines give the process id and the command line.
#pragma once

#include <istream>

#include "import/import_common.hpp"

namespace parperf::trace_import {

// Converts the lackey log `in` into accesses of `writer` (the caller finishes the writer). Lackey
// runs the program's threads one at a time and does not say which made an access: all accesses
// are given thread 0. Sizes that are not 1, 2, 4, 8 or 16 are split into consecutive pieces of
// those sizes, largest first (32 -> 16 + 16, 10 -> 8 + 2, 3 -> 2 + 1); an access of more than
// kMaxLackeyAccess bytes is an ImportError.
ImportStats import_lackey(std::istream& in, format::MemoryTraceWriter& writer, const ImportOptions& options);

// The largest access lackey reports for real instructions is an XSAVE area of a few KiB.
inline constexpr std::uint64_t kMaxLackeyAccess = 4096;

}  // namespace parperf::trace_import
