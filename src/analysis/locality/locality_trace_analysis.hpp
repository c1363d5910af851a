// Feeds a memory trace (`.ppm`, from a file or from the pipe of a running program) to the locality
// engine: each access's code address becomes a function (symbolized from the module's DWARF or
// symbol table), and the engine's report with the names of its functions becomes a LocalityResult.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/locality/locality_analyzer.hpp"
#include "analysis/symbolizer.hpp"
#include "format/locality_result.hpp"
#include "format/memory_trace_reader.hpp"

namespace parperf::locality {

class LocalityTraceAnalysis final : public format::MemoryTraceVisitor {
 public:
  explicit LocalityTraceAnalysis(const LocalityOptions& options);

  // Reads the whole trace. A trace that ends early (the program crashed, the pipe broke) is scored
  // up to its last whole section, with a warning; any other format error propagates.
  void read(std::istream& in, std::string_view name);

  // The result, once the trace is read.
  format::LocalityResult finish();

  void process(const format::MemoryTraceProcess& process) override;
  void sampling(const format::MemoryTraceSampling& sampling) override;
  void bursts(const format::MemoryTraceBursts& bursts) override;
  void modules(std::span<const format::MemoryModule> modules) override;
  void accesses(std::span<const format::MemoryAccessRecord> batch) override;

 private:
  std::uint32_t function_of(const format::MemoryAccessRecord& access);
  std::uint32_t symbolize(std::uint32_t module, std::uint64_t pc);

  LocalityOptions options_;
  // Made again with the capturer's rate when a sampling section comes (before any access).
  std::optional<LocalityAnalyzer> analyzer_;
  analysis::Symbolizer symbolizer_;
  std::map<std::uint32_t, std::string> module_paths_;
  // (name, module) of each function id; id 0 is "code whose function is not known".
  std::map<std::pair<std::string, std::string>, std::uint32_t> function_ids_;
  std::map<std::uint32_t, format::LocalityFunction> functions_;
  // Code addresses repeat: a loop's few accesses come again and again. A direct-mapped cache of
  // (module, pc) -> function keeps the symbolizer's map lookups off the per-access path.
  struct CacheEntry {
    std::uint64_t pc = 0;
    std::uint32_t module = 0;
    std::uint32_t function = 0;
    bool valid = false;
  };
  std::array<CacheEntry, 4096> cache_{};
  std::vector<Access> batch_;
  format::LocalityResult result_;
  std::uint64_t accesses_ = 0;
};

}  // namespace parperf::locality
