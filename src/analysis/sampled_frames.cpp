#include "analysis/sampled_frames.hpp"

#include <filesystem>

#include <fmt/format.h>

namespace parperf::analysis {

const std::vector<SampledFrame>& SampledFrameNames::of(const format::CallPaths& paths,
                                                       const format::CallPathNode& node) {
  const std::string* module = node.module < paths.modules.size() ? &paths.modules[node.module].path : nullptr;
  const auto key = std::make_tuple(module ? *module : std::string(), node.address, node.frame);
  auto found = cache_.find(key);
  if (found != cache_.end()) return found->second;
  std::vector<SampledFrame> frames;
  if (!module && node.address == format::kUnwindingStopped) {
    frames.push_back({std::string(kUnwindingStoppedFrame), "", 0});
  } else if (!module) {
    frames.push_back({fmt::format("0x{:x}", node.address), "", 0});
  } else if (module->find("linux-vdso") != std::string::npos) {
    // The kernel's virtual library has no file to read: its code is the kernel's fast system calls.
    frames.push_back({"[vdso]", "", 0});
  } else {
    const SourceLocation where = node.frame == 0 ? symbolizer_.locate(*module, node.address)
                                                 : symbolizer_.locate_return_address(*module, node.address);
    // A module the symbol table names but no debug information locates gets its own words; parperf's
    // own libraries (the waits it keeps whole, its callbacks) are named by their symbols, and
    // their lines are not the user's to fix.
    const std::string file_name = std::filesystem::path(*module).filename().string();
    if (const std::string& problem = symbolizer_.problem(*module);
        !problem.empty() && !file_name.starts_with("libparperf") && reported_.insert(*module).second)
      warnings_.push_back(fmt::format("sampled functions {}: {}",
                                      where.function.empty() ? "unnamed" : "without file:line", problem));
    for (auto caller = where.inlined_into.rbegin(); caller != where.inlined_into.rend(); ++caller)
      frames.push_back({caller->function, caller->file, caller->line});
    frames.push_back({where.function, where.file, where.line});
    if (frames.back().function.empty())
      frames.back().function = fmt::format("0x{:x} ({})", node.address, file_name);
  }
  return cache_.emplace(key, std::move(frames)).first->second;
}

}  // namespace parperf::analysis
