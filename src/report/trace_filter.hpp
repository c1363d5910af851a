// What the readable trace (`parperf trace`) shows: the threads and ranks selected, and the
// intervals and events named by globs or by kind words.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::report {

// A thread that --thread selects: thread `thread` of rank `rank`, or of every rank.
struct ThreadSelector {
  std::optional<std::int64_t> rank;
  std::uint32_t thread = 0;
};

// What the listing shows. Name lists hold shell globs that match names (as they are) or kind words
// ("parallel region", "implicit barrier", "user event"; also the kind keys "omp_critical",
// "parallel_loop"), these without regard to case and to ' ', '_' or '-' between words.
struct TraceFilter {
  std::vector<std::int64_t> ranks;        // empty: every rank
  std::vector<ThreadSelector> threads;    // empty: every thread
  std::vector<std::string> events;        // user events and operations to show; empty: all
  std::vector<std::string> no_events;     // ... to leave out; "none" in `events` leaves out all
  std::vector<std::string> intervals;     // intervals to show; empty: all. A hidden interval's
  std::vector<std::string> no_intervals;  // lines move up to its nearest shown ancestor's level
};

// "1,3" or "0:2" (rank 0, thread 2). Throws std::invalid_argument with a message for the user:
// "--thread: 'x' is not a thread number or RANK:THREAD".
std::vector<ThreadSelector> parse_thread_list(std::string_view list);

// "0,2". Throws std::invalid_argument: "--rank: 'x' is not a rank number".
std::vector<std::int64_t> parse_rank_list(std::string_view list);

// Whether --rank and --thread select thread `thread` of rank `rank`.
bool thread_selected(const TraceFilter& filter, std::int64_t rank, std::uint32_t thread);

// Whether an interval or event is shown: named by `show` (or `show` empty) and not by `hide`. A
// pattern names it by its name or by one of its kind words (compared without regard to case and
// to ' ', '_' or '-' between words); "none" names nothing.
bool shown_by(const std::vector<std::string>& show, const std::vector<std::string>& hide,
              std::string_view name, std::span<const std::string_view> kind_words);

}  // namespace parperf::report
