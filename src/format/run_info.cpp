#include "format/run_info.hpp"
#include "format/run_info_at.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "format/regular_file.hpp"
#include "format/run_directory.hpp"

namespace parperf::format {
namespace {

using Json = nlohmann::ordered_json;

// The checks of one field: present with the wrong type is an error naming the field; absent keeps
// the default (a run.json written by hand, or by a version with fewer fields).
class FieldReader {
 public:
  explicit FieldReader(const Json& object) : object_(object) {}

  const Json* find(const char* name, bool (Json::*is_type)() const noexcept, const char* type_words) const {
    const auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) return nullptr;
    if (!((*it).*is_type)()) throw RunInfoError(fmt::format("'{}' is not {}", name, type_words));
    return &*it;
  }
  void text(const char* name, std::string& out) const {
    if (const Json* j = find(name, &Json::is_string, "a string")) out = j->get<std::string>();
  }
  template <class Number>
  void number(const char* name, Number& out) const {
    if (const Json* j = find(name, &Json::is_number, "a number")) out = j->get<Number>();
  }
  template <class Number>
  void number(const char* name, std::optional<Number>& out) const {
    if (const Json* j = find(name, &Json::is_number, "a number")) out = j->get<Number>();
  }
  // A list of strings; a single string is read as a list of one (the command of a hand-written file).
  void texts(const char* name, std::vector<std::string>& out) const {
    const auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) return;
    if (it->is_string()) {
      out = {it->get<std::string>()};
      return;
    }
    const Json* j = find(name, &Json::is_array, "a list of strings");
    for (const Json& item : *j) {
      if (!item.is_string()) throw RunInfoError(fmt::format("'{}' is not a list of strings", name));
      out.push_back(item.get<std::string>());
    }
  }
  void text_map(const char* name, std::map<std::string, std::string>& out) const {
    const Json* j = find(name, &Json::is_object, "an object");
    if (!j) return;
    for (const auto& [key, value] : j->items()) {
      if (!value.is_string())
        throw RunInfoError(fmt::format("'{}' holds a value that is not a string", name));
      out[key] = value.get<std::string>();
    }
  }

 private:
  const Json& object_;
};

}  // namespace

std::string run_info_json(const RunInfo& info) {
  Json json;
  json["parperf_run_format"] = info.format;
  json["parperf_version"] = info.parperf_version;
  json["command"] = info.command;
  json["working_directory"] = info.working_directory;
  json["hostname"] = info.hostname;
  json["start_unix_s"] = info.start_unix_s;
  json["wall_time_s"] = info.wall_time_s;
  json["exit_code"] = info.exit_code ? Json(*info.exit_code) : nullptr;
  json["signal"] = info.signal ? Json(*info.signal) : nullptr;
  json["processes"] = info.processes;
  json["mpi_collector"] = info.mpi_collector.empty() ? nullptr : Json(info.mpi_collector);
  json["openmp_runtime"] = info.openmp_runtime;
  json["profiles"] = info.profiles;
  json["environment"] = info.environment;
  json["parameters"] = info.parameters;
  if (info.sweep)
    json["sweep"] = {{"processors", info.sweep->processors},
                     {"unit", info.sweep->unit},
                     {"repetition", info.sweep->repetition}};
  else
    json["sweep"] = nullptr;
  if (info.cores)
    json["cores"] = {{"online", info.cores->online}, {"allowed", info.cores->allowed}};
  else
    json["cores"] = nullptr;
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + '\n';
}

RunInfo parse_run_info(std::string_view text) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::parse_error& error) {
    // what() reads "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
    std::string_view what = error.what();
    if (auto bracket = what.find("] "); what.starts_with("[") && bracket != std::string_view::npos)
      what.remove_prefix(bracket + 2);
    throw RunInfoError(fmt::format("invalid JSON: {}", what));
  }
  if (!json.is_object()) throw RunInfoError("not a JSON object");
  RunInfo info;
  const FieldReader fields(json);
  fields.number("parperf_run_format", info.format);
  if (info.format > kRunInfoFormat) {
    throw RunInfoError(fmt::format("written by a later parperf (run format {}; this one reads up to {})",
                                   info.format, kRunInfoFormat));
  }
  fields.text("parperf_version", info.parperf_version);
  fields.texts("command", info.command);
  fields.text("working_directory", info.working_directory);
  fields.text("hostname", info.hostname);
  fields.number("start_unix_s", info.start_unix_s);
  fields.number("wall_time_s", info.wall_time_s);
  fields.number("exit_code", info.exit_code);
  fields.number("signal", info.signal);
  fields.number("processes", info.processes);
  fields.text("mpi_collector", info.mpi_collector);
  fields.text("openmp_runtime", info.openmp_runtime);
  fields.texts("profiles", info.profiles);
  fields.text_map("environment", info.environment);
  fields.text_map("parameters", info.parameters);
  if (const Json* sweep = fields.find("sweep", &Json::is_object, "an object")) {
    const FieldReader sweep_fields(*sweep);
    SweepPoint point;
    sweep_fields.number("processors", point.processors);
    sweep_fields.text("unit", point.unit);
    sweep_fields.number("repetition", point.repetition);
    if (point.processors < 1) throw RunInfoError("'sweep.processors' is not a positive number");
    if (point.unit != "threads" && point.unit != "ranks")
      throw RunInfoError(fmt::format("'sweep.unit' is '{}', neither 'threads' nor 'ranks'", point.unit));
    info.sweep = point;
  }
  if (const Json* cores = fields.find("cores", &Json::is_object, "an object")) {
    const FieldReader core_fields(*cores);
    HostCores host;
    core_fields.number("online", host.online);
    core_fields.number("allowed", host.allowed);
    if (host.online < 1 || host.allowed < 1) throw RunInfoError("'cores' holds a count that is not positive");
    info.cores = host;
  }
  return info;
}

std::optional<RunInfo> read_run_info(const std::filesystem::path& directory) {
  const std::filesystem::path path = directory / kRunInfoFileName;
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return std::nullopt;
  std::string text;
  try {
    text = RegularFile(path).read_all(kMaxRunInfoBytes, "a run.json");
  } catch (const FileError& e) {
    throw RunInfoError(e.cause());
  }
  return parse_run_info(text);
}

void write_run_info(const std::filesystem::path& directory, const RunInfo& info) {
  const int directory_fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd < 0)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", (directory / kRunInfoFileName).string(), std::strerror(errno)));
  try {
    write_run_info(directory_fd, directory, info);
  } catch (...) {
    close(directory_fd);
    throw;
  }
  close(directory_fd);
}

void write_run_info(int directory_fd, const std::filesystem::path& directory, const RunInfo& info) {
  const auto final_path = directory / kRunInfoFileName;
  // Per-process temporary name: under mpirun every rank's parperf writes this file.
  const std::string temporary_name = fmt::format(".{}.{}.tmp", kRunInfoFileName, getpid());
  const auto temporary = directory / temporary_name;
  const std::string text = run_info_json(info);
  // The name is predictable: never through a symbolic link or into a file planted there. Something
  // in the way (a stale file of an earlier process with this pid, a link) is removed, not followed.
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = openat(directory_fd, temporary_name.c_str(), kFlags, 0666);
  if (fd < 0 && errno == EEXIST && unlinkat(directory_fd, temporary_name.c_str(), 0) == 0)
    fd = openat(directory_fd, temporary_name.c_str(), kFlags, 0666);
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
    unlinkat(directory_fd, temporary_name.c_str(), 0);
    throw std::runtime_error(fmt::format("cannot write {}: {}", temporary.string(),
                                         std::strerror(write_error ? write_error : errno)));
  }
  // rename replaces a run.json that is a symbolic link instead of writing through it.
  if (renameat(directory_fd, temporary_name.c_str(), directory_fd, kRunInfoFileName) != 0) {
    const int error = errno;
    unlinkat(directory_fd, temporary_name.c_str(), 0);
    throw std::runtime_error(fmt::format("cannot write {}: {}", final_path.string(), std::strerror(error)));
  }
}

}  // namespace parperf::format
