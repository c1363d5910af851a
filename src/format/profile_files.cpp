#include "format/profile_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <string>
#include <system_error>
#include <utility>

#include "format/regular_file.hpp"
#include "format/run_directory.hpp"
#include "format/trace_records.hpp"

namespace parperf::format {
namespace {

std::optional<std::int64_t> rank_in_name(std::string_view name, std::string_view prefix,
                                         std::string_view suffix) {
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
    return std::nullopt;
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  std::int64_t rank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return rank;
}

template <class RankOf>
std::vector<std::string> find_rank_files(const std::filesystem::path& directory,
                                         std::filesystem::file_time_type older_than, RankOf rank_of) {
  std::vector<std::pair<std::int64_t, std::string>> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    std::string name = entry.path().filename().string();
    const std::optional<std::int64_t> rank = rank_of(name);
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

// The names `rank_of` accepts in `directory` that are not regular files (after following links).
template <class RankOf>
std::vector<LeftOutFile> left_out(const std::filesystem::path& directory, RankOf rank_of) {
  std::vector<std::pair<std::int64_t, LeftOutFile>> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    std::string name = entry.path().filename().string();
    const std::optional<std::int64_t> rank = rank_of(name);
    if (!rank) continue;
    struct stat target {};
    std::string why;
    if (::stat(entry.path().c_str(), &target) != 0) {
      const int cause = errno;
      why = cause == ENOENT ? "a symbolic link to nothing"
                            : "cannot be examined: " + std::generic_category().message(cause);
    } else if (!S_ISREG(target.st_mode))
      why = std::string(file_type_text(target.st_mode)) + ", not a regular file";
    else
      continue;
    found.emplace_back(*rank, LeftOutFile{std::move(name), std::move(why)});
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<LeftOutFile> files;
  for (auto& [rank, file] : found) files.push_back(std::move(file));
  return files;
}

}  // namespace

std::vector<LeftOutFile> profiles_left_out(const std::filesystem::path& directory) {
  return left_out(directory, rank_of_profile_name);
}

std::vector<LeftOutFile> traces_left_out(const std::filesystem::path& directory) {
  return left_out(directory, rank_of_trace_name);
}

std::optional<std::int64_t> rank_of_profile_name(std::string_view name) {
  return rank_in_name(name, kProfilePrefix, kProfileSuffix);
}

std::optional<std::int64_t> rank_of_trace_name(std::string_view name) {
  return rank_in_name(name, kTracePrefix, kTraceSuffix);
}

std::vector<std::string> find_profiles(const std::filesystem::path& directory,
                                       std::filesystem::file_time_type older_than) {
  return find_rank_files(directory, older_than, rank_of_profile_name);
}

std::vector<std::string> find_traces(const std::filesystem::path& directory) {
  return find_rank_files(directory, std::filesystem::file_time_type::max(), rank_of_trace_name);
}

}  // namespace parperf::format
