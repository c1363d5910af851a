#include "analysis/locality/locality_trace_analysis.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <utility>

namespace parperf::locality {

LocalityTraceAnalysis::LocalityTraceAnalysis(const LocalityOptions& options)
    : options_(options), analyzer_(std::in_place, options) {  // bad options fail here, before a program runs
  functions_[0] = format::LocalityFunction{};                 // unknown code
}

void LocalityTraceAnalysis::sampling(const format::MemoryTraceSampling& sampling) {
  // The section comes before any access (the reader checks): nothing was added yet.
  options_.presampled_rate = sampling.rate;
  analyzer_.emplace(options_);
}

void LocalityTraceAnalysis::bursts(const format::MemoryTraceBursts& bursts) {
  // Before any access too: each thread's stream is bursts to score apart.
  options_.burst_length = bursts.burst_length;
  options_.mean_gap = bursts.mean_gap;
  analyzer_.emplace(options_);
}

void LocalityTraceAnalysis::read(std::istream& in, std::string_view name) {
  try {
    format::read_memory_trace(in, name, *this);
  } catch (const format::FormatError& error) {
    const std::string what = error.what();
    // Sections already scored stay valid: a trace is cut short when the program dies.
    if (accesses_ == 0 || what.find("truncated") == std::string::npos) throw;
    result_.warnings.push_back(
        fmt::format("{}; the scores cover the {} accesses read before that point (did the program crash?)",
                    what, accesses_));
  }
}

void LocalityTraceAnalysis::process(const format::MemoryTraceProcess& process) {
  result_.source = process.source;
  result_.command_line = process.command_line;
  result_.dropped = process.dropped;
}

void LocalityTraceAnalysis::modules(std::span<const format::MemoryModule> modules) {
  for (const auto& module : modules) module_paths_[module.id] = module.path;
}

std::uint32_t LocalityTraceAnalysis::symbolize(std::uint32_t module, std::uint64_t pc) {
  const auto path = module_paths_.find(module);
  if (path == module_paths_.end() || pc == 0) return 0;
  // The recorded pc is the hook call's return address: the call sits just before it.
  const analysis::SourceLocation location = symbolizer_.locate_return_address(path->second, pc);
  const std::string module_name = std::filesystem::path(path->second).filename().string();
  const std::string name =
      location.function.empty() ? fmt::format("{}+{:#x}", module_name, pc) : location.function;
  auto [it, inserted] =
      function_ids_.try_emplace({name, path->second}, static_cast<std::uint32_t>(functions_.size()));
  if (inserted) {
    format::LocalityFunction& function = functions_[it->second];
    function.name = name;
    function.file = location.file;
    function.line = static_cast<std::uint32_t>(location.line);
    function.module = path->second;
  } else if (location.line > 0) {
    // The first line seen of a function: keep the smallest, the nearest to its start.
    format::LocalityFunction& function = functions_[it->second];
    if (function.line == 0 || static_cast<std::uint32_t>(location.line) < function.line)
      function.line = static_cast<std::uint32_t>(location.line);
    if (function.file.empty()) function.file = location.file;
  }
  return it->second;
}

std::uint32_t LocalityTraceAnalysis::function_of(const format::MemoryAccessRecord& access) {
  if (access.module == format::kNoModule) return 0;
  const std::uint64_t pc = format::code_address(access);
  const std::size_t slot = ((pc >> 1) ^ (pc >> 13) ^ access.module) % cache_.size();
  CacheEntry& entry = cache_[slot];
  if (entry.valid && entry.pc == pc && entry.module == access.module) return entry.function;
  entry = {pc, access.module, symbolize(access.module, pc), true};
  return entry.function;
}

void LocalityTraceAnalysis::accesses(std::span<const format::MemoryAccessRecord> batch) {
  batch_.clear();
  batch_.reserve(batch.size());
  for (const auto& record : batch) {
    batch_.push_back({record.address, function_of(record), record.thread, record.size,
                      (record.flags & format::kAccessStore) != 0, format::skipped_before(record)});
  }
  analyzer_->add(batch_);
  accesses_ += batch.size();
}

format::LocalityResult LocalityTraceAnalysis::finish() {
  result_.report = analyzer_->finish();
  for (const auto& [id, scores] : result_.report.functions) result_.functions[id] = functions_[id];
  if (result_.functions.contains(0) && result_.functions[0].name.empty())
    result_.functions[0].name = "(unknown code)";
  for (const auto& [module, path] : module_paths_) {
    if (const auto& problem = symbolizer_.problem(path); !problem.empty())
      result_.warnings.push_back(fmt::format("cannot name the functions of {}", problem));
  }
  if (result_.dropped > 0)
    result_.warnings.push_back(
        fmt::format("the capture dropped {} accesses (out of memory or unwritable trace)", result_.dropped));
  return std::move(result_);
}

}  // namespace parperf::locality
