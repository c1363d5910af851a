// `parperf run [-o DIR] [-q] [-v] [--openmp-runtime=MODE] [--np N] [--] prog args...`: runs a program
// that need not be linked against parperf with the runtime preloaded (with the PMPI wrappers when it
// uses MPI, the PSHMEM wrappers when it uses OpenSHMEM, and LLVM's libomp in place of GNU libgomp, see
// openmp_runtime.hpp), then writes run.json beside the profiles the runtime wrote. The run directory is made
// (or, when it exists, checked to be the user's) before the program starts; when it cannot be made the
// runtime, which also creates it when it writes, warns once, and the program runs on unmeasured. Under
// `mpirun -np N parperf run ...` every rank has its own parperf, which shares nothing with the others but the
// directory: the directory's default name comes from the job id, and rank 0 alone writes run.json. `--np N`
// runs `mpirun -np N parperf run ...` (`oshrun ...` for an OpenSHMEM program) itself and writes run.json once
// the job has ended.
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/commands.hpp"
#include "cli/host_cores.hpp"
#include "cli/mpi_launch.hpp"
#include "cli/openmp_runtime.hpp"
#include "cli/output_directory.hpp"
#include "cli/preload.hpp"
#include "cli/run_directory_reuse.hpp"
#include "cli/run_program.hpp"
#include "cli/shmem_launch.hpp"
#include "cli/sweep.hpp"
#include "cli/trace_recording.hpp"
#include "format/profile_files.hpp"
#include "format/run_directory.hpp"
#include "format/run_info.hpp"
#include "format/run_info_at.hpp"
#include "report/printable_text.hpp"

extern char** environ;

namespace parperf::cli {
namespace {

// `text` as a shell word, so the printed `parperf report DIR` hint can be pasted as it is.
std::string shell_word(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_./+-:@%,=") == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

double unix_seconds_now() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The run directory as the user will name it, ready for the runtime: -o DIR, or the directory the
// ranks of a job share, claimed (made, or found to be this user's: output_directory.hpp); else a
// default name in the current directory, made afresh.
struct PreparedDirectory {
  std::filesystem::path shown;
  bool made_here = false;  // removed again when the runtime wrote nothing into it
};

PreparedDirectory prepare_run_directory(const RunOptions& options, const MpiJob& job) {
  if (!options.output.empty()) {
    // The runtime replaces "%p" with the program's pid: only it knows that directory.
    if (options.output.find("%p") != std::string::npos) return {options.output};
    const bool made = claim_directory(options.output);
    // The ranks `--np` starts share the directory their launcher's parperf took already. The ranks
    // of a launcher that gives no job id cannot tell a sibling's files from an earlier run's.
    if (!options.job_member && !(job.is_rank && job.job_id.empty()))
      take_run_directory(options.output, job.is_rank ? job.job_id : "", options.force);
    return {options.output, made};
  }
  const auto program = std::filesystem::path(options.command.front()).filename().string();
  if (job.is_rank && !job.job_id.empty()) {
    std::filesystem::path shared = job_directory_name(program, job.job_id);
    claim_directory(shared);
    return {shared};
  }
  char name[512];
  format::default_run_directory_name(name, sizeof name, program.c_str(), std::time(nullptr));
  std::filesystem::path fresh = make_fresh_directory(name);
  std::error_code error;
  return {fresh, std::filesystem::is_directory(fresh, error)};
}

// The runtime gets an absolute path: the program may change its working directory before it writes.
// An existing directory is named by its real path: the runtime opens it without following a link at
// its name (a -o that is the user's own link to a directory is resolved here, before the run).
std::filesystem::path absolute_directory(const std::filesystem::path& directory) {
  std::error_code error;
  if (auto real = std::filesystem::canonical(directory, error); !error) return real;
  auto path = std::filesystem::absolute(directory).lexically_normal();
  if (!path.has_filename() && path.has_parent_path() && path != path.root_path()) path = path.parent_path();
  return path;
}

// The runtime replaces each "%p" in PARPERF_DIR with its pid (several processes can then share one
// setting); this is where it wrote.
std::filesystem::path with_pid(const std::filesystem::path& path, int pid) {
  std::string text = path.string();
  const std::string digits = std::to_string(pid);
  for (auto at = text.find("%p"); at != std::string::npos; at = text.find("%p", at + digits.size())) {
    text.replace(at, 2, digits);
  }
  return text;
}

std::map<std::string, std::string> parperf_variables(const std::vector<std::string>& environment, int pid) {
  std::map<std::string, std::string> variables;
  for (const auto& entry : environment) {
    const auto equals = entry.find('=');
    if (entry.starts_with("PARPERF_") && equals != std::string::npos) {
      variables[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
  }
  variables[kPidVariable] = std::to_string(pid);
  return variables;
}

// Why exec failed, in the user's terms: execvp says "Permission denied" for a directory.
std::string why_not_run(const std::string& program, int exec_error) {
  std::error_code error;
  if (exec_error == EACCES) {
    const auto resolved = resolve_program(program, std::getenv("PATH"));
    if (std::filesystem::is_directory(resolved.value_or(program), error)) return "it is a directory";
  }
  return std::strerror(exec_error);
}

void report_signal(int signal_number) {
  const char* name = sigabbrev_np(signal_number);
  fmt::print(stderr, "parperf: program terminated by signal {} (SIG{})\n", signal_number,
             name != nullptr ? name : "?");
}

// A directory made here for a program that did not start, or that the runtime never got into
// (statically linked), is removed: an empty run directory would only say less than the messages.
// Returns whether it was removed. What lies at the name now must be the directory `held` opened:
// one swapped for a link is left alone.
bool remove_if_unused(const PreparedDirectory& prepared, const std::filesystem::path& directory,
                      const HeldDirectory& held) {
  std::error_code error;
  if (!prepared.made_here) return false;
  if (held.fd() >= 0) {
    struct stat opened {};
    struct stat named {};
    if (fstat(held.fd(), &opened) != 0 || lstat(directory.c_str(), &named) != 0 ||
        opened.st_dev != named.st_dev || opened.st_ino != named.st_ino)
      return false;
  }
  return std::filesystem::is_empty(directory, error) && std::filesystem::remove(directory, error);
}

// After the program ended: run.json and a line saying where the profile is.
void finish_run_directory(const RunOptions& options, const std::filesystem::path& shown,
                          const std::filesystem::path& directory, const HeldDirectory& held,
                          std::filesystem::file_time_type start, format::RunInfo& info) {
  if (held.fd() < 0) {
    // The runtime has said why if it could not write; do not name the directory a second time.
    if (!options.quiet) {
      fmt::print(stderr,
                 "parperf: no profile was written (see any warning above; a statically linked program "
                 "cannot be measured by preloading)\n");
    }
    return;
  }
  info.profiles = format::find_profiles(held.path());
  // A reused -o directory may keep profiles this run did not rewrite (an earlier run had more
  // ranks); the report would mix them in. The slack covers coarse file-system timestamps.
  if (const auto stale = format::find_profiles(held.path(), start - std::chrono::seconds(1));
      !stale.empty()) {
    fmt::print(stderr,
               "parperf: warning: {} also holds an earlier run's {}{}: remove old profiles first, or the "
               "report mixes them in\n",
               report::printable(shown.string()), stale.front(),
               stale.size() > 1 ? fmt::format(" and {} more", stale.size() - 1) : "");
  }
  try {
    format::write_run_info(held.fd(), directory, info);
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf: {}\n", e.what());
  }
  if (options.quiet) return;
  if (info.profiles.empty()) {
    fmt::print(stderr, "parperf: the program ended before the runtime wrote a profile to {}\n",
               report::printable(shown.string()));
  } else {
    fmt::print(stderr, "parperf: profile written to {} \u2014 see: parperf report {}\n",
               report::printable(shown.string()), report::printable(shell_word(shown.string())));
  }
}

// Whether the program runs on its own OpenMP runtime or on libomp, which the runtime can measure.
// What is decided never stops the run: at worst the program's OpenMP is not measured.
OpenMpPlan choose_openmp_runtime(const RunOptions& options) {
  const auto detection =
      detect_openmp_runtime(options.command.front(),
                            {.path = std::getenv("PATH"), .ld_library_path = std::getenv("LD_LIBRARY_PATH")});
  const auto mode = options.openmp_runtime == "libomp"   ? OpenMpRuntimeMode::kLibomp
                    : options.openmp_runtime == "native" ? OpenMpRuntimeMode::kNative
                                                         : OpenMpRuntimeMode::kAuto;
  auto plan = plan_openmp_runtime(mode, detection, configured_libomp());
  if (!plan.warning.empty()) fmt::print(stderr, "parperf: warning: {}\n", plan.warning);
  if (options.verbose) {
    std::string found = detection.linkage == OpenMpLinkage::kUnknown
                            ? fmt::format("not known ({})", detection.reason)
                            : plan.description;
    if (!detection.needed_by.empty()) found += fmt::format(", needed by {}", detection.needed_by);
    if (plan.preload) found += fmt::format("; preloading {}", plan.preload->string());
    fmt::print(stderr, "parperf: OpenMP runtime: {}\n", found);
  }
  return plan;
}

// A model's collector library when the program links the model's library (`uses`), found beside
// the runtime by `find` (a collector would load the model into a program that does not use it).
std::optional<std::filesystem::path> choose_collector(
    const RunOptions& options, const std::filesystem::path& runtime_library,
    bool (*uses)(const std::filesystem::path&), std::filesystem::path (*find)(const std::filesystem::path&),
    const char* model) {
  const auto program = resolve_program(options.command.front(), std::getenv("PATH"));
  if (!program || !uses(*program)) return std::nullopt;
  auto library = find(runtime_library);
  if (options.verbose) fmt::print(stderr, "parperf: {} program: preloading {}\n", model, library.string());
  return library;
}

// The PMPI wrappers when the program uses MPI.
std::optional<std::filesystem::path> choose_mpi_collector(const RunOptions& options,
                                                          const std::filesystem::path& runtime_library) {
  return choose_collector(options, runtime_library, links_mpi, find_mpi_collector_library, "MPI");
}

// The PSHMEM wrappers when the program uses OpenSHMEM.
std::optional<std::filesystem::path> choose_shmem_collector(const RunOptions& options,
                                                            const std::filesystem::path& runtime_library) {
  return choose_collector(options, runtime_library, links_shmem, find_shmem_collector_library, "OpenSHMEM");
}

// The command `--np` runs: `oshrun ... parperf run ...` for an OpenSHMEM program (with Open MPI's
// fix for its exit), `mpirun ... parperf run ...` for any other; the launcher's name for messages.
std::pair<std::vector<std::string>, std::string> job_command(const RunOptions& options,
                                                             const std::vector<std::string>& inner,
                                                             const std::filesystem::path& self) {
  const auto program = resolve_program(options.command.front(), std::getenv("PATH"));
  if (program && links_shmem(*program)) {
    const std::string oshrun = configured_oshrun();
    auto command = oshrun_prefix(oshrun, is_open_mpi_oshrun(oshrun), options.processes);
    command.push_back(self.string());
    command.emplace_back("run");
    command.insert(command.end(), inner.begin(), inner.end());
    command.emplace_back("--");
    command.insert(command.end(), options.command.begin(), options.command.end());
    return {command, oshrun};
  }
  const std::string mpirun = configured_mpirun();
  return {
      launcher_command(mpirun, is_open_mpi_launcher(mpirun), options.processes, self, inner, options.command),
      mpirun};
}

// `parperf run --np N`: the job's ranks are `parperf run` processes too; this one writes run.json.
int run_job(const RunOptions& options) {
  const auto prepared = prepare_run_directory(options, MpiJob{});
  const auto& shown = prepared.shown;
  const auto directory = absolute_directory(shown);
  HeldDirectory held(directory);  // before the job starts: run.json goes where the ranks write
  std::vector<std::string> inner = {"-o", directory.string(), "--openmp-runtime", options.openmp_runtime,
                                    "--job-member"};
  if (options.quiet) inner.emplace_back("-q");
  if (options.verbose) inner.emplace_back("-v");
  for (const std::string& argument : trace_arguments(options.trace)) inner.push_back(argument);
  for (const std::string& argument : sample_arguments(options.sample)) inner.push_back(argument);
  const auto self = std::filesystem::read_symlink("/proc/self/exe");
  const auto [command, mpirun] = job_command(options, inner, self);
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);

  format::RunInfo info;
  info.parperf_version = PARPERF_VERSION_STRING;
  info.command = options.command;
  info.processes = options.processes;
  info.parameters = options.parameters;
  info.sweep = options.sweep;
  RunOptions silent = options;  // the ranks' parperf say what they preload
  silent.verbose = false;
  if (const auto collector = choose_mpi_collector(silent, find_runtime_library()))
    info.mpi_collector = collector->string();
  std::error_code error;
  info.working_directory = std::filesystem::current_path(error).string();
  info.hostname = host_name();
  info.cores = host_cores();
  info.start_unix_s = unix_seconds_now();
  const auto start_file_time = std::filesystem::file_time_type::clock::now();
  const auto start = std::chrono::steady_clock::now();
  const auto launcher = run_child(command, environment, "PARPERF_LAUNCHER_PID");
  info.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (launcher.exec_error != 0) {
    remove_if_unused(prepared, directory, held);
    fmt::print(stderr,
               "parperf: cannot run the launcher '{}': {} (set PARPERF_MPIRUN, or PARPERF_OSHRUN for an "
               "OpenSHMEM program, to name it)\n",
               mpirun, std::strerror(launcher.exec_error));
    return kCannotRun;
  }
  info.exit_code = launcher.exit_code;
  info.signal = launcher.signal;
  info.openmp_runtime = options.openmp_runtime;
  if (remove_if_unused(prepared, directory, held))
    held = HeldDirectory();
  else if (held.fd() < 0)
    held = HeldDirectory(directory);  // made by the ranks' runtimes
  finish_run_directory(options, shown, directory, held, start_file_time, info);
  return launcher.signal ? 128 + *launcher.signal : launcher.exit_code.value_or(kParperfFailed);
}

}  // namespace

int run_program(const RunOptions& options) {
  if (options.processes > 0) return run_job(options);
  const MpiJob job = mpi_job_of_this_process();
  const auto library = find_runtime_library();
  const auto prepared = prepare_run_directory(options, job);
  const auto& shown = prepared.shown;
  const auto directory = absolute_directory(shown);
  HeldDirectory held(directory);  // before the program starts: run.json goes where the runtime writes
  std::vector<std::pair<std::string, std::string>> settings = {{"PARPERF_DIR", directory.string()}};
  if (options.quiet) settings.emplace_back("PARPERF_QUIET", "1");  // the runtime's messages too
  const auto local_traces = local_trace_directory(options.trace);
  for (auto& setting : trace_settings(options.trace, local_traces)) settings.push_back(std::move(setting));
  for (auto& setting : sample_settings(options.sample)) settings.push_back(std::move(setting));
  const auto openmp = choose_openmp_runtime(options);
  std::vector<std::filesystem::path> preloads = {library};
  const auto mpi_collector = choose_mpi_collector(options, library);
  if (mpi_collector) preloads.push_back(*mpi_collector);
  if (const auto shmem_collector = choose_shmem_collector(options, library))
    preloads.push_back(*shmem_collector);
  if (openmp.preload) preloads.push_back(*openmp.preload);
  const auto environment = child_environment(environ, preloads, settings);

  format::RunInfo info;
  info.parperf_version = PARPERF_VERSION_STRING;
  info.command = options.command;
  info.processes = job.size;
  info.parameters = options.parameters;
  info.sweep = options.sweep;
  info.mpi_collector = mpi_collector ? mpi_collector->string() : "";
  info.openmp_runtime = openmp.description;
  std::error_code error;
  info.working_directory = std::filesystem::current_path(error).string();
  info.hostname = host_name();
  info.cores = host_cores();
  info.start_unix_s = unix_seconds_now();
  const auto start_file_time = std::filesystem::file_time_type::clock::now();
  const auto start = std::chrono::steady_clock::now();
  const auto child = run_child(options.command, environment, kPidVariable);
  info.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (child.exec_error != 0) {
    remove_if_unused(prepared, directory, held);
    fmt::print(stderr, "parperf: cannot run '{}': {}\n", report::printable(options.command.front()),
               why_not_run(options.command.front(), child.exec_error));
    return kCannotRun;
  }
  info.exit_code = child.exit_code;
  info.signal = child.signal;
  info.environment = parperf_variables(environment, child.pid);
  move_local_traces(local_traces, with_pid(directory, child.pid));
  if (child.signal) report_signal(*child.signal);
  // One rank of a job: rank 0 speaks for the job (or the `parperf run --np` that started it does).
  if (options.job_member || (job.is_rank && job.rank != 0)) {
    return child.signal ? 128 + *child.signal : child.exit_code.value_or(kParperfFailed);
  }
  const auto written = with_pid(directory, child.pid);
  if (remove_if_unused(prepared, directory, held))
    held = HeldDirectory();
  else if (held.fd() < 0)
    held = HeldDirectory(written);  // a "%p" name, or one the runtime made
  finish_run_directory(options, with_pid(shown, child.pid), written, held, start_file_time, info);
  return child.signal ? 128 + *child.signal : child.exit_code.value_or(kParperfFailed);
}

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  auto* run = app.add_subcommand("run", "Run a program with the parperf runtime preloaded");
  run->add_option(
         "-o,--output", options->output,
         "Run directory to write (default: parperf-<program>-<date>-<time> in the current directory)")
      ->type_name("DIR");
  run->add_flag("--force", options->force,
                "Replace the run a -o directory already holds (its files are removed before the program "
                "starts); without it such a directory is refused");
  run->add_flag("-q,--quiet", options->quiet, "Print only warnings and errors");
  run->add_flag("-v,--verbose", options->verbose, "Also say which OpenMP runtime the program runs on");
  run->add_option("--openmp-runtime", options->openmp_runtime,
                  "auto: run programs built for GNU libgomp on LLVM's libomp, whose OpenMP parperf "
                  "measures (default); libomp: always preload libomp; native: never")
      ->check(CLI::IsMember({"auto", "libomp", "native"}))
      ->type_name("MODE");
  run->add_option(
         "--np", options->processes,
         "Run the program as an MPI job of N ranks (mpirun -np N, or $PARPERF_MPIRUN), each measured; "
         "an OpenSHMEM program as N PEs (oshrun -np N, or $PARPERF_OSHRUN). With --sweep, give no N "
         "(then --): the sweep's counts are ranks")
      ->type_name("N")
      ->expected(0, 1)
      ->default_str(std::to_string(kRanksOfTheSweep))
      ->check(
          [](const std::string& text) -> std::string {
            if (text == std::to_string(kRanksOfTheSweep)) return "";
            try {
              const long n = std::stol(text);
              if (n >= 1 && n <= (1 << 20)) return "";
            } catch (const std::exception&) {
            }
            return "a number of ranks from 1 to 1048576";
          },
          "N");
  add_trace_options(*run, options->trace);
  add_sample_options(*run, options->sample);
  auto parameters = std::make_shared<std::vector<std::string>>();
  run->add_option(
         "--param", *parameters,
         "A parameter of the problem (name=value, repeatable), recorded in run.json: parperf predict "
         "models runs with different values apart")
      ->type_name("NAME=VALUE");
  auto sweep = std::make_shared<SweepOptions>();
  add_sweep_options(*run, *sweep);
  run->add_flag("--job-member", options->job_member)->group("");  // set by --np for the ranks it starts
  run->add_option("program", options->command, "The program to run, then its arguments")->required();
  run->positionals_at_end();  // everything from the program name on belongs to the program
  run->footer(
      "Exit status: the program's; 128+N when signal N ended it; 127 when it could not be started;\n"
      "125 when parperf itself failed. SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGUSR1 and SIGUSR2 sent to\n"
      "parperf are passed on to the program; if parperf itself is killed, the program is killed too.\n"
      "The runtime library is <parperf>/../lib/libparperf.so unless\n"
      "PARPERF_LIBRARY names another; libomp is the one found at build time unless PARPERF_LIBOMP\n"
      "names another.");
  run->callback([options, parameters, sweep] {
    // Usage errors first: CLI11 reports them as such (exit status 2).
    try {
      options->parameters = parse_parameters(*parameters);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError(e.what());
    }
    if (options->processes == kRanksOfTheSweep && sweep->counts.empty())
      throw CLI::ValidationError("--np: give the number of ranks (--np N); only --sweep takes none");
    int status = 0;
    try {
      status = sweep->counts.empty() ? run_program(*options) : run_sweep(*options, *sweep);
    } catch (const std::exception& e) {
      fmt::print(stderr, "parperf: {}\n", e.what());
      status = kParperfFailed;
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace parperf::cli
