#include "export/perfetto_callstacks.hpp"

namespace parperf::exports {
namespace {

// Field numbers of InternedData and of profile_common.proto's messages.
namespace interned {
constexpr std::uint32_t kFunctionNames = 5, kFrames = 6, kCallstacks = 7, kMappingPaths = 17, kMappings = 19;
}
namespace interned_string {
constexpr std::uint32_t kIid = 1, kStr = 2;
}
namespace mapping {
constexpr std::uint32_t kIid = 1, kPathStringIds = 7;
}
namespace frame {
constexpr std::uint32_t kIid = 1, kFunctionNameId = 2, kMappingId = 3, kRelPc = 4;
}
namespace callstack {
constexpr std::uint32_t kIid = 1, kFrameIds = 2;
}

constexpr const char* kIntervalsModule = "[parperf intervals]";
constexpr const char* kUnknownModule = "[unknown]";

}  // namespace

std::uint64_t PerfettoCallstacks::string(std::map<std::string, std::uint64_t>& index, std::uint32_t field,
                                         const std::string& text, ProtoMessage& interned) {
  if (const auto it = index.find(text); it != index.end()) return it->second;
  const std::uint64_t iid = index.size() + 1;  // 0 is "not set"
  index.emplace(text, iid);
  entry_.clear();
  entry_.uint(interned_string::kIid, iid);
  entry_.text(interned_string::kStr, text);
  interned.message(field, entry_);
  return iid;
}

std::uint64_t PerfettoCallstacks::mapping(const std::string& path, ProtoMessage& interned) {
  if (const auto it = mappings_.find(path); it != mappings_.end()) return it->second;
  const std::uint64_t path_iid = string(mapping_paths_, interned::kMappingPaths, path, interned);
  const std::uint64_t iid = mappings_.size() + 1;
  mappings_.emplace(path, iid);
  // Perfetto needs a mapping for every frame; without a build id (0: none) it names it by its path.
  entry_.clear();
  entry_.uint(mapping::kIid, iid);
  entry_.uint(mapping::kPathStringIds, path_iid);
  interned.message(interned::kMappings, entry_);
  return iid;
}

std::uint64_t PerfettoCallstacks::frame(const std::string& function, std::uint64_t mapping_iid,
                                        std::uint64_t address, ProtoMessage& interned) {
  const auto key = std::make_tuple(mapping_iid, address, function);
  if (const auto it = frames_.find(key); it != frames_.end()) return it->second;
  const std::uint64_t name_iid = string(function_names_, interned::kFunctionNames, function, interned);
  const std::uint64_t iid = frames_.size() + 1;
  frames_.emplace(key, iid);
  entry_.clear();
  entry_.uint(frame::kIid, iid);
  entry_.uint(frame::kFunctionNameId, name_iid);
  entry_.uint(frame::kMappingId, mapping_iid);
  entry_.uint(frame::kRelPc, address);
  interned.message(interned::kFrames, entry_);
  return iid;
}

std::uint64_t PerfettoCallstacks::callstack(const analysis::TraceSamples& samples, std::size_t stack,
                                            ProtoMessage& interned) {
  if (const auto it = callstacks_.find(stack); it != callstacks_.end()) return it->second;
  const analysis::SampleStack& s = samples.stacks[stack];
  frame_ids_.clear();
  const std::uint64_t intervals = mapping(kIntervalsModule, interned);
  // An interval frame's "address" is its depth: the same name at another depth is another frame.
  for (std::size_t depth = 0; depth < s.interval_path.size(); ++depth)
    frame_ids_.push_back(frame(s.interval_path[depth], intervals, depth, interned));
  for (const analysis::SampleStackFrame& f : s.frames) {
    const std::uint64_t module = mapping(f.module.empty() ? kUnknownModule : f.module, interned);
    frame_ids_.push_back(frame(f.function, module, f.address, interned));
  }
  const std::uint64_t iid = callstacks_.size() + 1;
  callstacks_.emplace(stack, iid);
  entry_.clear();
  entry_.uint(callstack::kIid, iid);
  for (const std::uint64_t id : frame_ids_) entry_.uint(callstack::kFrameIds, id);  // outermost first
  interned.message(interned::kCallstacks, entry_);
  return iid;
}

}  // namespace parperf::exports
