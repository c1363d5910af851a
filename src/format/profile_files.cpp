#include "format/profile_files.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <utility>

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

}  // namespace

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
