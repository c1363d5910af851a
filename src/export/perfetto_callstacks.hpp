// The call stacks of the trace's samples in Perfetto's interning tables (InternedData of
// protos/perfetto/trace/interned_data/interned_data.proto, messages of profiling/profile_common.proto):
// each module a Mapping with its path, each (module, address, function) a Frame, each distinct stack
// a Callstack of frame ids, outermost first; every entry written once, in the packet that first
// refers to it, so a run's samples cost one callstack id each.
//
// A stack begins with the intervals the thread was in (program, then the nested ones), as frames of
// a pseudo-module "[parperf intervals]": the flame graph Perfetto draws over a selection then splits
// the functions by interval, as `parperf report --folded` does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/trace/trace_samples.hpp"
#include "export/protobuf_wire.hpp"

namespace parperf::exports {

class PerfettoCallstacks {
 public:
  // The iid of stack `stack` of `samples`; the entries it needs that were not written yet are appended
  // to `interned` (an InternedData being built for the packet).
  std::uint64_t callstack(const analysis::TraceSamples& samples, std::size_t stack, ProtoMessage& interned);

 private:
  std::uint64_t string(std::map<std::string, std::uint64_t>& index, std::uint32_t field,
                       const std::string& text, ProtoMessage& interned);
  std::uint64_t mapping(const std::string& path, ProtoMessage& interned);
  std::uint64_t frame(const std::string& function, std::uint64_t mapping, std::uint64_t address,
                      ProtoMessage& interned);

  std::map<std::string, std::uint64_t> function_names_, mapping_paths_, mappings_;
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::string>, std::uint64_t> frames_;
  std::unordered_map<std::size_t, std::uint64_t> callstacks_;  // by the stack's index
  std::vector<std::uint64_t> frame_ids_;
  ProtoMessage entry_;
};

}  // namespace parperf::exports
