#include "cli/mpi_launch.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "cli/openmp_runtime.hpp"
#include "format/job_environment.hpp"

namespace parperf::cli {
namespace {

std::optional<std::int64_t> integer(const char* text) {
  if (!text || !*text) return std::nullopt;
  std::int64_t value = 0;
  const char* end = text;
  while (*end) ++end;
  auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || value < 0) return std::nullopt;
  return value;
}

// A job id usable in a file name: letters, digits, '-', '_' and '.' kept, the rest replaced.
std::string file_name_safe(const std::string& text) {
  std::string safe;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.';
    safe += keep ? c : '_';
  }
  return safe;
}

}  // namespace

MpiJob mpi_job_from_environment(Getenv getenv) {
  MpiJob job;
  for (const char* name : format::kLauncherRankVariables) {
    if (auto rank = integer(getenv(name))) {
      job.is_rank = true;
      job.rank = *rank;
      break;
    }
  }
  for (const char* name : format::kLauncherSizeVariables) {
    if (auto size = integer(getenv(name)); size && *size > 0) {
      job.size = *size;
      break;
    }
  }
  if (job.rank >= job.size) job.size = job.rank + 1;
  if (const char* id = getenv("OMPI_MCA_ess_base_jobid"); id && *id) {
    job.job_id = id;
  } else if (const char* ns = getenv("PMIX_NAMESPACE"); ns && *ns) {
    job.job_id = ns;
  } else if (const char* slurm = getenv("SLURM_JOB_ID"); slurm && *slurm) {
    const char* step = getenv("SLURM_STEP_ID");
    job.job_id = std::string(slurm) + (step ? std::string(".") + step : "");
  }
  return job;
}

MpiJob mpi_job_of_this_process() {
  return mpi_job_from_environment([](const char* name) -> const char* { return std::getenv(name); });
}

bool needs_library_named(const std::filesystem::path& program, std::string_view prefix) {
  const auto dynamic = read_dynamic_section(program);
  if (!dynamic) return false;
  for (const std::string& needed : dynamic->needed) {
    if (needed.starts_with(prefix)) return true;
  }
  return false;
}

bool links_mpi(const std::filesystem::path& program) { return needs_library_named(program, "libmpi"); }

std::filesystem::path find_mpi_collector_library(const std::filesystem::path& runtime_library) {
  auto library = runtime_library.parent_path() / "libparperf-mpi.so";
  std::error_code error;
  if (!std::filesystem::exists(library, error))
    throw std::runtime_error("the MPI collector library " + library.string() + " is missing");
  return library;
}

std::string job_directory_name(const std::string& program, const std::string& job_id) {
  return "parperf-" + program + "-job" + file_name_safe(job_id);
}

std::string configured_mpirun() {
  const char* configured = std::getenv("PARPERF_MPIRUN");
  return configured && *configured ? configured : "mpirun";
}

std::vector<std::string> launcher_prefix(const std::string& mpirun, bool open_mpi, int processes) {
  std::vector<std::string> command = {mpirun, "-np", std::to_string(processes)};
  if (open_mpi) command.emplace_back("--oversubscribe");
  return command;
}

std::vector<std::string> launcher_command(const std::string& mpirun, bool open_mpi, int processes,
                                          const std::filesystem::path& parperf,
                                          const std::vector<std::string>& inner_arguments,
                                          const std::vector<std::string>& program) {
  std::vector<std::string> command = launcher_prefix(mpirun, open_mpi, processes);
  command.push_back(parperf.string());
  command.emplace_back("run");
  command.insert(command.end(), inner_arguments.begin(), inner_arguments.end());
  command.emplace_back("--");
  command.insert(command.end(), program.begin(), program.end());
  return command;
}

std::string version_line(const std::string& launcher) {
  const std::string command = "'" + launcher + "' --version 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  char line[256] = "";
  return std::fgets(line, sizeof line, pipe.get()) != nullptr ? line : "";
}

bool is_open_mpi_launcher(const std::string& mpirun) {
  return version_line(mpirun).find("Open MPI") != std::string::npos;
}

}  // namespace parperf::cli
