#include "import/import_common.hpp"

namespace parperf::trace_import {

ExecutableCodeMap begin_import(format::MemoryTraceWriter& writer, const ImportOptions& options,
                               std::string_view source) {
  writer.process().source = std::string(source);
  if (options.executable.empty()) return {};
  auto map = ExecutableCodeMap::load(options.executable, kExecutableModule);
  writer.define_module(kExecutableModule, std::filesystem::absolute(options.executable).string());
  return map;
}

void import_error(const ImportOptions& options, std::uint64_t line, const std::string& what) {
  throw ImportError(options.input_name + ":" + std::to_string(line) + ": " + what);
}

}  // namespace parperf::trace_import
