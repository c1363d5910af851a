// `parperf cc` / `parperf c++`: clang with the memory-access instrumentation of `parperf locality`,
// in the manner of the classic tool wrappers (scorep-cc, tau_cc.sh). Every argument goes to clang
// unchanged; the wrapper adds
//   -fsanitize-coverage=func,trace-loads,trace-stores   a hook call before every load and store
//   -fno-sanitize-link-runtime   clang would otherwise link its own weak hooks into the program,
//                                and they would win over libparperf-mem's
//   -mno-avx     32-byte AVX accesses are not instrumented: keep vectors at 16 bytes (unless the
//                user asks for AVX, which gets a warning)
//   -g           function names and source lines for the report
// and, when linking, libparperf-mem with an rpath. `--only FUNCTION` (repeatable) instruments only
// the named functions: an allowlist of `src:*` and `fun:FUNCTION` lines (clang needs both kinds).
#include <unistd.h>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/commands.hpp"
#include "cli/preload.hpp"
#include "cli/temporary_file.hpp"

namespace parperf::cli {
namespace {

struct CompilerOptions {
  std::vector<std::string> only;
  std::vector<std::string> arguments;
};

bool links(const std::vector<std::string>& arguments) {
  for (const auto& argument : arguments)
    if (argument == "-c" || argument == "-S" || argument == "-E" || argument == "-M" || argument == "-MM")
      return false;
  return true;
}

bool asks_for_avx(const std::vector<std::string>& arguments) {
  for (const auto& argument : arguments)
    if (argument.starts_with("-mavx") || argument == "-march=native" ||
        argument.starts_with("-march=x86-64-v3") || argument.starts_with("-march=x86-64-v4") ||
        argument.starts_with("-march=skylake") || argument.starts_with("-march=haswell") ||
        argument.starts_with("-march=znver"))
      return true;
  return false;
}

std::string compiler(bool cxx) {
  const char* configured = std::getenv(cxx ? "PARPERF_CXX" : "PARPERF_CC");
  if (configured && *configured) return configured;
  return cxx ? "clang++-16" : "clang-16";
}

int compile(const CompilerOptions& options, bool cxx) {
  const auto library_directory = find_runtime_library().parent_path();
  std::vector<std::string> command = {compiler(cxx)};
  command.insert(command.end(), options.arguments.begin(), options.arguments.end());
  command.emplace_back("-fsanitize-coverage=func,trace-loads,trace-stores");
  command.emplace_back("-fno-sanitize-link-runtime");
  command.emplace_back("-g");
  if (asks_for_avx(options.arguments)) {
    fmt::print(stderr,
               "parperf: warning: AVX is enabled: clang does not instrument 32-byte vector loads and stores, "
               "so the locality misses them (drop -mavx/-march or accept the gap)\n");
  } else {
    command.emplace_back("-mno-avx");
  }
  std::filesystem::path allowlist;
  if (!options.only.empty()) {
    std::string text = "src:*\n";
    for (const auto& function : options.only) text += "fun:" + function + "\n";
    allowlist = create_temporary_file("parperf-allowlist-XXXXXX.txt", text);
    command.push_back("-fsanitize-coverage-allowlist=" + allowlist.string());
  }
  if (links(options.arguments)) {
    command.push_back("-L" + library_directory.string());
    command.push_back("-Wl,-rpath," + library_directory.string());
    command.emplace_back("-lparperf-mem");
    command.emplace_back("-pthread");
  }
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  const auto result = run_child(command, environment, "PARPERF_COMPILER_PID");
  if (!allowlist.empty()) std::filesystem::remove(allowlist);
  if (result.exec_error != 0) {
    fmt::print(stderr, "parperf: cannot run {}: {} (set {} to name the compiler)\n", command.front(),
               std::strerror(result.exec_error), cxx ? "PARPERF_CXX" : "PARPERF_CC");
    return 127;
  }
  if (result.signal) return 128 + *result.signal;
  return result.exit_code.value_or(125);
}

void add_compiler(CLI::App& app, bool cxx) {
  auto options = std::make_shared<CompilerOptions>();
  auto* command = app.add_subcommand(cxx ? "c++" : "cc",
                                     fmt::format("Compile and link {} with the memory-access instrumentation "
                                                 "of 'parperf locality' (clang)",
                                                 cxx ? "C++" : "C"));
  command
      ->add_option("--only", options->only,
                   "Instrument only this function (repeatable; mangled names for C++)")
      ->type_name("FUNCTION")
      ->allow_extra_args(false)  // `--only f x.c`: x.c is clang's
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->prefix_command();  // everything after parperf's own options is clang's
  command->callback([options, command, cxx] {
    options->arguments = command->remaining();
    int status = 0;
    try {
      status = compile(*options, cxx);
    } catch (const std::exception& e) {
      fmt::print(stderr, "parperf: {}\n", e.what());
      status = 125;
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace

void add_compiler_commands(CLI::App& app) {
  add_compiler(app, false);
  add_compiler(app, true);
}

}  // namespace parperf::cli
