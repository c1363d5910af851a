// `parperf cc` / `parperf c++` / `parperf fortran`: the compiler with parperf's instrumentation, in
// the manner of the classic tool wrappers (scorep-cc, tau_cc.sh). Every argument goes to the
// compiler unchanged; `--instrument` chooses what the wrapper adds (docs/instrumentation.md):
//
// memory (the default of cc and c++): the memory-access hooks of `parperf locality`, with clang
//   -fsanitize-coverage=func,trace-loads,trace-stores   a hook call before every load and store
//   -fno-sanitize-link-runtime   clang would otherwise link its own weak hooks into the program,
//                                and they would win over libparperf-mem's
//   -mno-avx     32-byte AVX accesses are not instrumented: keep vectors at 16 bytes (unless the
//                user asks for AVX, which gets a warning)
//   and, when linking, libparperf-mem. `--only FUNCTION` (repeatable) instruments only the named
//   functions: an allowlist of `src:*` and `fun:FUNCTION` lines (clang needs both kinds).
//   `--sampled`: instead of the hooks, -fpass-plugin=libparperf-mem-pass.so (an inline countdown
//   before each access, the collector called for sampled bursts only); `--only` reaches the plugin
//   as PARPERF_MEM_ONLY, a file of function names.
// functions (the default of fortran): every function's entry and exit, with gcc, g++ or gfortran
//   -finstrument-functions (clang: -finstrument-functions-after-inlining, so that calls the
//   optimiser inlined cost nothing), -fno-omit-frame-pointer (the hooks know a call by its frame)
//   and, when linking, libparperf-functions and the runtime.
//   `--filter FILE` leaves functions out: gcc is told the exclusions it can apply itself, and after
//   linking the whole filter is decided per function and left in the module for the runtime.
// Both add -g (function names and source lines for the report) and an rpath to parperf's libraries.
#include <unistd.h>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/commands.hpp"
#include "cli/function_filter_file.hpp"
#include "cli/preload.hpp"
#include "cli/temporary_file.hpp"

namespace parperf::cli {
namespace {

enum class Language { c, cxx, fortran };

struct CompilerOptions {
  std::vector<std::string> instrument;
  std::string filter;
  std::vector<std::string> only;
  bool sampled = false;
  std::vector<std::string> arguments;
};

struct Instrumentation {
  bool memory = false;
  bool functions = false;
};

bool links(const std::vector<std::string>& arguments) {
  for (const auto& argument : arguments)
    if (argument == "-c" || argument == "-S" || argument == "-E" || argument == "-M" || argument == "-MM")
      return false;
  return true;
}

// Where the link writes: -o's argument, else the compiler's a.out.
std::filesystem::path link_output(const std::vector<std::string>& arguments) {
  std::filesystem::path output = "a.out";
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == "-o" && i + 1 < arguments.size()) {
      output = arguments[++i];
    } else if (arguments[i].starts_with("-o") && arguments[i].size() > 2) {
      output = arguments[i].substr(2);
    }
  }
  return output;
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

const char* compiler_variable(Language language) {
  switch (language) {
    case Language::c:
      return "PARPERF_CC";
    case Language::cxx:
      return "PARPERF_CXX";
    case Language::fortran:
      break;
  }
  return "PARPERF_FC";
}

// The compiler: the one the variable names, else clang for memory instrumentation (only clang has
// the load and store hooks), the GNU compilers for functions (only gcc applies a filter while
// compiling).
std::string compiler(Language language, const Instrumentation& what) {
  const char* configured = std::getenv(compiler_variable(language));
  if (configured && *configured) return configured;
  if (language == Language::fortran) return "gfortran";
  if (what.memory) return language == Language::cxx ? "clang++-16" : "clang-16";
  return language == Language::cxx ? "g++" : "gcc";
}

bool is_clang(const std::string& compiler) {
  return std::filesystem::path(compiler).filename().string().find("clang") != std::string::npos;
}

Instrumentation parse_instrumentation(const CompilerOptions& options, Language language) {
  Instrumentation what;
  for (const std::string& item : options.instrument) {
    if (item == "memory") {
      what.memory = true;
    } else if (item == "functions") {
      what.functions = true;
    } else {
      throw std::runtime_error(fmt::format("--instrument={}: say 'memory' or 'functions' (or both)", item));
    }
  }
  if (!what.memory && !what.functions) {
    what.memory = language != Language::fortran;
    what.functions = language == Language::fortran;
  }
  if (what.memory && language == Language::fortran)
    throw std::runtime_error(
        "parperf fortran instruments functions only: memory accesses need clang's load and store hooks, "
        "which gfortran does not have");
  if (!options.filter.empty() && !what.functions)
    throw std::runtime_error("--filter chooses instrumented functions: it needs --instrument=functions");
  if (options.sampled && !what.memory)
    throw std::runtime_error(
        "--sampled is a mode of the memory instrumentation: it needs --instrument=memory");
  if (!options.only.empty() && !what.memory)
    throw std::runtime_error(
        "--only chooses functions for memory instrumentation: it needs --instrument=memory");
  return what;
}

// The sampled mode: the pass plugin beside the libraries puts an inline countdown before every
// load and store (compiler_plugin/sampled_access_pass.cpp); `--only` reaches it through
// PARPERF_MEM_ONLY, a file of function names.
void add_sampled_memory_instrumentation(std::vector<std::string>& command, const CompilerOptions& options,
                                        const std::filesystem::path& library_directory,
                                        std::vector<std::string>& environment, std::filesystem::path& only) {
  const auto plugin = library_directory / "libparperf-mem-pass.so";
  if (!std::filesystem::exists(plugin))
    throw std::runtime_error(
        fmt::format("--sampled needs the pass plugin {}, which is missing", plugin.string()));
  command.push_back("-fpass-plugin=" + plugin.string());
  if (!options.only.empty()) {
    std::string text;
    for (const auto& function : options.only) text += function + "\n";
    only = create_temporary_file("parperf-only-XXXXXX.txt", text);
    environment.push_back("PARPERF_MEM_ONLY=" + only.string());
  }
}

void add_memory_instrumentation(std::vector<std::string>& command, const CompilerOptions& options,
                                const std::filesystem::path& library_directory,
                                std::vector<std::string>& environment, std::filesystem::path& allowlist) {
  if (options.sampled) {
    add_sampled_memory_instrumentation(command, options, library_directory, environment, allowlist);
  } else {
    command.emplace_back("-fsanitize-coverage=func,trace-loads,trace-stores");
    command.emplace_back("-fno-sanitize-link-runtime");
  }
  if (asks_for_avx(options.arguments)) {
    fmt::print(stderr,
               "parperf: warning: AVX is enabled: clang does not instrument 32-byte vector loads and stores, "
               "so the locality misses them (drop -mavx/-march or accept the gap)\n");
  } else {
    command.emplace_back("-mno-avx");
  }
  if (!options.only.empty() && !options.sampled) {
    std::string text = "src:*\n";
    for (const auto& function : options.only) text += "fun:" + function + "\n";
    allowlist = create_temporary_file("parperf-allowlist-XXXXXX.txt", text);
    command.push_back("-fsanitize-coverage-allowlist=" + allowlist.string());
  }
}

void add_function_instrumentation(std::vector<std::string>& command,
                                  const std::optional<FunctionFilterFile>& filter) {
  // The hooks tell a call the program has left (a longjmp, an unwound exception) by its frame
  // address (runtime/functions/call_stack.hpp).
  command.emplace_back("-fno-omit-frame-pointer");
  if (is_clang(command.front())) {
    command.emplace_back("-finstrument-functions-after-inlining");
    return;
  }
  command.emplace_back("-finstrument-functions");
  if (filter)
    for (std::string& option : gcc_exclusion_options(*filter)) command.push_back(std::move(option));
}

int compile(const CompilerOptions& options, Language language) {
  const Instrumentation what = parse_instrumentation(options, language);
  std::optional<FunctionFilterFile> filter;
  if (!options.filter.empty()) filter = read_function_filter(options.filter);
  const auto library_directory = find_runtime_library().parent_path();
  std::vector<std::string> command = {compiler(language, what)};
  command.insert(command.end(), options.arguments.begin(), options.arguments.end());
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  std::filesystem::path allowlist;
  if (what.memory) add_memory_instrumentation(command, options, library_directory, environment, allowlist);
  if (what.functions) add_function_instrumentation(command, filter);
  command.emplace_back("-g");
  const bool linking = links(options.arguments);
  if (linking) {
    command.push_back("-L" + library_directory.string());
    command.push_back("-Wl,-rpath," + library_directory.string());
    if (what.memory) command.emplace_back("-lparperf-mem");
    if (what.functions) {
      // The hooks, and the runtime they call, whatever --as-needed the toolchain defaults to: the
      // program must measure itself when it runs without `parperf run`.
      for (const char* item :
           {"-Wl,--push-state,--no-as-needed", "-lparperf-functions", "-lparperf", "-Wl,--pop-state"})
        command.emplace_back(item);
    }
    command.emplace_back("-pthread");
  }
  const auto result = run_child(command, environment, "PARPERF_COMPILER_PID");
  if (!allowlist.empty()) std::filesystem::remove(allowlist);
  if (result.exec_error != 0) {
    fmt::print(stderr, "parperf: cannot run {}: {} (set {} to name the compiler)\n", command.front(),
               std::strerror(result.exec_error), compiler_variable(language));
    return 127;
  }
  if (result.signal) return 128 + *result.signal;
  const int status = result.exit_code.value_or(125);
  if (status == 0 && linking && filter) {
    const std::filesystem::path output = link_output(options.arguments);
    const ModuleExclusions done = embed_function_exclusions(output, *filter);
    fmt::print(stderr, "parperf: {}: the function filter {} excludes {} of its {} functions\n",
               output.string(), filter->path, done.excluded, done.functions);
  }
  return status;
}

std::string description(Language language) {
  switch (language) {
    case Language::c:
      return "Compile and link C with parperf's instrumentation: memory accesses for 'parperf locality' "
             "(clang, the default) or functions (--instrument=functions, gcc)";
    case Language::cxx:
      return "Compile and link C++ with parperf's instrumentation: memory accesses for 'parperf locality' "
             "(clang++, the default) or functions (--instrument=functions, g++)";
    case Language::fortran:
      break;
  }
  return "Compile and link Fortran with parperf's function instrumentation (gfortran)";
}

void add_compiler(CLI::App& app, Language language) {
  auto options = std::make_shared<CompilerOptions>();
  const char* name = language == Language::c ? "cc" : language == Language::cxx ? "c++" : "fortran";
  auto* command = app.add_subcommand(name, description(language));
  command
      ->add_option("--instrument", options->instrument,
                   "What to instrument: memory (loads and stores, for 'parperf locality') or functions (each "
                   "function becomes an interval of the profile); comma-separated")
      ->type_name("memory|functions")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option(
          "--filter", options->filter,
          "Function filter (include/exclude rules on function and file names; docs/instrumentation.md)")
      ->type_name("FILE")
      ->allow_extra_args(false);
  command
      ->add_option("--only", options->only,
                   "Memory instrumentation of this function only (repeatable; mangled names for C++)")
      ->type_name("FUNCTION")
      ->allow_extra_args(false)  // `--only f x.c`: x.c is the compiler's
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_flag("--sampled", options->sampled,
                    "Memory instrumentation in bursts: an inline countdown before each load and store, "
                    "the collector called only for the sampled bursts (clang-16 pass plugin; "
                    "docs/locality.md); default: every access calls the collector (exact)");
  command->prefix_command();  // everything after parperf's own options is the compiler's
  command->callback([options, command, language] {
    options->arguments = command->remaining();
    int status = 0;
    try {
      status = compile(*options, language);
    } catch (const std::exception& e) {
      fmt::print(stderr, "parperf: {}\n", e.what());
      status = 125;
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace

void add_compiler_commands(CLI::App& app) {
  add_compiler(app, Language::c);
  add_compiler(app, Language::cxx);
  add_compiler(app, Language::fortran);
}

}  // namespace parperf::cli
