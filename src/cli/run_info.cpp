#include "cli/run_info.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "format/run_directory.hpp"

namespace parperf::cli {
namespace {

// The rank in "profile.<rank>.ppf", or nothing when the name is not a profile file's.
std::optional<long long> profile_rank(std::string_view name) {
  const std::string_view prefix = format::kProfilePrefix;
  const std::string_view suffix = format::kProfileSuffix;
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) {
    return std::nullopt;
  }
  const auto digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  long long rank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return rank;
}

nlohmann::ordered_json to_json(const RunInfo& info) {
  nlohmann::ordered_json json;
  json["parperf_run_format"] = kRunInfoFormat;
  json["parperf_version"] = PARPERF_VERSION_STRING;
  json["command"] = info.command;
  json["working_directory"] = info.working_directory;
  json["hostname"] = info.hostname;
  json["start_unix_s"] = info.start_unix_s;
  json["wall_time_s"] = info.wall_time_s;
  json["exit_code"] = info.exit_code ? nlohmann::ordered_json(*info.exit_code) : nullptr;
  json["signal"] = info.signal ? nlohmann::ordered_json(*info.signal) : nullptr;
  json["processes"] = info.processes;
  json["mpi_collector"] = info.mpi_collector.empty() ? nullptr : nlohmann::ordered_json(info.mpi_collector);
  json["openmp_runtime"] = info.openmp_runtime;
  json["profiles"] = info.profiles;
  json["environment"] = info.environment;
  return json;
}

}  // namespace

std::vector<std::string> find_profiles(const std::filesystem::path& directory,
                                       std::filesystem::file_time_type older_than) {
  std::vector<std::pair<long long, std::string>> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    auto name = entry.path().filename().string();
    auto rank = profile_rank(name);
    if (!rank || !entry.is_regular_file(error)) continue;
    if (older_than != std::filesystem::file_time_type::max() && entry.last_write_time(error) >= older_than)
      continue;
    found.emplace_back(*rank, std::move(name));
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& [rank, name] : found) names.push_back(std::move(name));
  return names;
}

void write_run_info(const std::filesystem::path& directory, const RunInfo& info) {
  const auto final_path = directory / format::kRunInfoFileName;
  // Per-process temporary name: under mpirun every rank's parperf writes this file.
  const auto temporary = directory / fmt::format(".{}.{}.tmp", format::kRunInfoFileName, getpid());
  // argv and the environment are bytes, not necessarily UTF-8: replace what JSON cannot hold.
  const std::string text =
      to_json(info).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
  // The name is predictable: never through a symbolic link or into a file planted there. Something
  // in the way (a stale file of an earlier process with this pid, a link) is removed, not followed.
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST && unlink(temporary.c_str()) == 0)
    fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    throw std::runtime_error(fmt::format("cannot write {}: {}", temporary.string(), std::strerror(errno)));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const int write_error = written == text.size() ? 0 : errno;
  if (close(fd) != 0 || write_error != 0) {
    unlink(temporary.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", temporary.string(),
                                         std::strerror(write_error ? write_error : errno)));
  }
  // rename replaces a run.json that is a symbolic link instead of writing through it.
  std::error_code error;
  std::filesystem::rename(temporary, final_path, error);
  if (error) {
    unlink(temporary.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", final_path.string(), error.message()));
  }
}

}  // namespace parperf::cli
