// The readable trace (`parperf trace`): each thread's own interval tree as it is in its profile,
// one block per (rank, thread), one line per interval, operation and user event, nested by
// indentation, in the manner of the DVM and ompP readable traces. Unlike the report it merges
// nothing and computes no characteristic: it shows what each thread recorded.
//
// A pure function of decoded profiles. How a site is named and where it points in the source is
// left to a SiteDescriber, so that a describer that symbolizes code addresses can replace the
// default one, which only says what the profile itself holds.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/profile.hpp"

namespace parperf::report {

// How the listing says a site. Empty strings and line 0 mean unknown.
struct SiteText {
  std::string kind_name;   // "parallel region", "implicit barrier of loop"
  std::string name;        // shown in quotes; empty: not shown
  std::string file;        // "heat.c", or "heat+0x1a2b" for a code address not symbolized
  std::int64_t line1 = 0;  // where the site begins
  std::int64_t line2 = 0;  // where a construct ends; 0 when unknown or on line1
};

// Describes `site`. `construct` is the site of the construct that an implicit or join barrier
// belongs to (Site::parent), when the same profile defines it; null otherwise.
using SiteDescriber = std::function<SiteText(const format::Site& site, const format::Site* construct)>;

// The default describer: the kind in words, the site's own name, file and line; for a site found
// at a code address and not symbolized, "<module file name>+0x<address>" as its file. The name of
// an operation is left out when it only repeats the kind ("critical").
SiteText describe_site(const format::Site& site, const format::Site* construct);

// A site kind (format::SiteKind) in words: "user interval", "parallel region", "implicit barrier".
std::string_view site_kind_words(std::uint32_t kind);

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

// The blocks of the threads of `profile` that `filter` selects, by thread index, separated by a
// blank line; "" when it selects none.
std::string render_trace_listing(const format::Profile& profile, const TraceFilter& filter = {},
                                 const SiteDescriber& describe = describe_site);

// The same for every profile of a run, in the given order (load_run sorts them by rank).
std::string render_trace_listing(const std::vector<format::Profile>& profiles, const TraceFilter& filter = {},
                                 const SiteDescriber& describe = describe_site);

}  // namespace parperf::report
