#include "cli/function_filter_file.hpp"

#include <unistd.h>  // environ

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/core.h>

#include "analysis/function_symbols.hpp"
#include "cli/child_process.hpp"
#include "cli/temporary_file.hpp"
#include "format/excluded_functions.hpp"

namespace parperf::cli {
namespace {

bool has_glob_or_comma(std::string_view text) { return text.find_first_of("*?,") != std::string_view::npos; }

// The substring gcc should look for when `rule` means "contains it" (or, for a file, "starts with
// an absolute directory", which a substring of a path matches but for paths that hold it deeper);
// empty when gcc cannot say the rule.
std::string_view gcc_substring(const format::FilterRule& rule) {
  std::string_view p = rule.pattern;
  if (p.size() > 2 && p.front() == '*' && p.back() == '*' && !has_glob_or_comma(p.substr(1, p.size() - 2)))
    return p.substr(1, p.size() - 2);
  if (rule.target == format::FilterTarget::file && p.size() > 2 && p.front() == '/' && p.back() == '*' &&
      !has_glob_or_comma(p.substr(0, p.size() - 1)))
    return p.substr(0, p.size() - 1);
  return {};
}

std::string little_endian(std::uint64_t value, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}

}  // namespace

FunctionFilterFile read_function_filter(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read the function filter {}", path.string()));
  std::ostringstream contents;
  contents << in.rdbuf();
  FunctionFilterFile filter{path.string(), contents.str(), {}};
  format::for_each_filter_line(filter.text, [&](int line, const format::FilterLine& parsed) {
    if (parsed.status == format::FilterLine::Status::error)
      throw std::runtime_error(fmt::format("{}:{}: {} (a rule is 'include|exclude function|file GLOB')",
                                           filter.path, line, parsed.error));
    if (parsed.status == format::FilterLine::Status::rule) filter.rules.push_back(parsed.rule);
  });
  return filter;
}

std::vector<std::string> gcc_exclusion_options(const FunctionFilterFile& filter) {
  std::string functions, files;
  bool include_follows = false;
  // From the last rule back: an exclusion is safe to apply early only when no inclusion after it
  // could take a function back.
  for (auto rule = filter.rules.rbegin(); rule != filter.rules.rend(); ++rule) {
    if (rule->action == format::FilterAction::include) {
      include_follows = true;
      continue;
    }
    const std::string_view text = gcc_substring(*rule);
    if (include_follows || text.empty()) continue;
    std::string& list = rule->target == format::FilterTarget::function ? functions : files;
    if (!list.empty()) list += ',';
    list += text;
  }
  std::vector<std::string> options;
  if (!functions.empty()) options.push_back("-finstrument-functions-exclude-function-list=" + functions);
  if (!files.empty()) options.push_back("-finstrument-functions-exclude-file-list=" + files);
  return options;
}

ModuleExclusions embed_function_exclusions(const std::filesystem::path& module,
                                           const FunctionFilterFile& filter) {
  const std::vector<analysis::FunctionSymbol> functions = analysis::function_symbols(module.string());
  std::vector<std::uint64_t> excluded;  // ascending, as the functions are
  for (const analysis::FunctionSymbol& f : functions)
    if (format::filter_excludes(filter.rules, f.name, f.file)) excluded.push_back(f.address);

  std::string section(format::kExcludedFunctionsMagic, 4);
  section += little_endian(format::kExcludedFunctionsVersion, 4);
  section += little_endian(excluded.size(), 8);
  for (const std::uint64_t address : excluded) section += little_endian(address, 8);
  const std::filesystem::path contents = create_temporary_file("parperf-exclude-XXXXXX.bin", section);

  const char* configured = std::getenv("PARPERF_OBJCOPY");
  const std::string objcopy = configured && *configured ? configured : "objcopy";
  const std::string name = format::kExcludedFunctionsSection;
  // A section that is not loaded moves no address: the list stays exact. An earlier list (the
  // module linked again in place) is replaced.
  const std::vector<std::string> command = {objcopy,
                                            "--remove-section=" + name,
                                            "--add-section",
                                            name + "=" + contents.string(),
                                            "--set-section-flags",
                                            name + "=contents,readonly",
                                            module.string()};
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  const ChildResult result = run_child(command, environment, "PARPERF_OBJCOPY_PID");
  std::filesystem::remove(contents);
  if (result.exec_error != 0)
    throw std::runtime_error(fmt::format("cannot run {}: {} (set PARPERF_OBJCOPY to name it)", objcopy,
                                         std::strerror(result.exec_error)));
  if (result.exit_code.value_or(1) != 0)
    throw std::runtime_error(
        fmt::format("{} could not add the function filter's list to {}", objcopy, module.string()));
  return {functions.size(), excluded.size()};
}

}  // namespace parperf::cli
