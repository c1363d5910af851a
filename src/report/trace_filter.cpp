#include "report/trace_filter.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "report/interval_selection.hpp"
#include "report/option_list.hpp"

namespace parperf::report {
namespace {

// Kind words compare alike whatever their case and whether words are joined by ' ', '_' or '-'.
std::string normalized(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '_' || c == '-') c = ' ';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Does any pattern name this interval or event, by its name or one of its kind words? "none" names
// nothing, so `--events none` shows nothing.
bool matches_any(const std::vector<std::string>& patterns, std::string_view name,
                 std::span<const std::string_view> kind_words) {
  for (const std::string& pattern : patterns) {
    if (pattern == "none") continue;
    if (glob_matches(pattern, name)) return true;
    const std::string kind_pattern = normalized(pattern);
    for (std::string_view words : kind_words) {
      if (!words.empty() && glob_matches(kind_pattern, normalized(words))) return true;
    }
  }
  return false;
}

}  // namespace

bool shown_by(const std::vector<std::string>& show, const std::vector<std::string>& hide,
              std::string_view name, std::span<const std::string_view> kind_words) {
  if (!show.empty() && !matches_any(show, name, kind_words)) return false;
  return !matches_any(hide, name, kind_words);
}

bool thread_selected(const TraceFilter& filter, std::int64_t rank, std::uint32_t thread) {
  if (!filter.ranks.empty() &&
      std::find(filter.ranks.begin(), filter.ranks.end(), rank) == filter.ranks.end())
    return false;
  if (filter.threads.empty()) return true;
  return std::any_of(filter.threads.begin(), filter.threads.end(), [&](const ThreadSelector& s) {
    return s.thread == thread && (!s.rank || *s.rank == rank);
  });
}

std::vector<ThreadSelector> parse_thread_list(std::string_view list) {
  std::vector<ThreadSelector> selectors;
  for (std::string_view item : list_items(list)) {
    ThreadSelector selector;
    const std::size_t colon = item.find(':');
    std::int64_t rank = 0;
    bool ok = true;
    if (colon != std::string_view::npos) {
      ok = parse_count(item.substr(0, colon), rank);
      selector.rank = rank;
    }
    ok = ok && parse_count(colon == std::string_view::npos ? item : item.substr(colon + 1), selector.thread);
    if (!ok)
      throw std::invalid_argument(fmt::format("--thread: '{}' is not a thread number or RANK:THREAD", item));
    selectors.push_back(selector);
  }
  return selectors;
}

std::vector<std::int64_t> parse_rank_list(std::string_view list) {
  std::vector<std::int64_t> ranks;
  for (std::string_view item : list_items(list)) {
    std::int64_t rank = 0;
    if (!parse_count(item, rank))
      throw std::invalid_argument(fmt::format("--rank: '{}' is not a rank number", item));
    ranks.push_back(rank);
  }
  return ranks;
}

}  // namespace parperf::report
