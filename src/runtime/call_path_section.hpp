// The profile's `call_paths` section (format 3.4): every sampled thread's call-path tree, its
// addresses turned into a module and a module-relative address (code_modules.hpp), its intervals
// into the node indices the thread sections just gave them.
#pragma once

#include "format/record_writer.hpp"
#include "runtime/file_sink.hpp"

namespace parperf::runtime {

struct ThreadState;

// Writes the section when sampling ran; after the thread sections (it refers to their node indices).
// `in_signal_handler`: the module list is not refreshed (the loader's lock may be held).
void write_call_paths(format::RecordWriter<FileSink>& writer, const ThreadState* head,
                      bool in_signal_handler) noexcept;

}  // namespace parperf::runtime
