// The source frames of a sampled call-path node (the profile's `call_paths` section): the function
// its code was compiled as, then each function inlined into it down to the innermost, with file and
// line, from the module's debug information (symbolizer.hpp). Shared by the profile's sample report
// (call_path_profile.hpp) and the trace's samples (trace/trace_samples.hpp), so both name a frame
// alike.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/symbolizer.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

// The frame that stands for the callers of a path whose stack walk stopped before its thread's first
// frame (format::kUnwindingStopped).
inline constexpr std::string_view kUnwindingStoppedFrame = "[unwinding stopped]";

struct SampledFrame {
  std::string function;  // demangled; "0x<address> (<module>)" when nothing names it
  std::string file;      // empty if unknown
  std::int64_t line = 0;
};

// Resolves each (module, address, kind of frame) once. Not thread-safe (the symbolizer is not).
class SampledFrameNames {
 public:
  // Problems met (a module without debug information) are appended to `warnings`, once a module.
  explicit SampledFrameNames(std::vector<std::string>& warnings) : warnings_(warnings) {}

  // The node's frames, outermost first.
  const std::vector<SampledFrame>& of(const format::CallPaths& paths, const format::CallPathNode& node);

 private:
  Symbolizer symbolizer_;
  std::map<std::tuple<std::string, std::uint64_t, std::uint32_t>, std::vector<SampledFrame>> cache_;
  std::set<std::string> reported_;
  std::vector<std::string>& warnings_;
};

}  // namespace parperf::analysis
