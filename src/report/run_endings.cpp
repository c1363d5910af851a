#include "report/run_endings.hpp"

#include <csignal>
#include <map>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "analysis/rank_list.hpp"
#include "report/printable_text.hpp"

namespace parperf::report {
namespace {

using Out = std::back_insert_iterator<std::string>;

std::string signal_name(std::uint32_t signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGABRT:
      return "SIGABRT";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGKILL:
      return "SIGKILL";
    case SIGILL:
      return "SIGILL";
    default:
      return fmt::format("signal {}", signal);
  }
}

std::string end_text(const ProfileEnd& end) {
  switch (end.reason) {
    case format::EndReason::exit:
      return "exit";
    case format::EndReason::flush:
      return "flush (written by parperf_flush while running)";
    case format::EndReason::signal:
      return fmt::format("signal {} ({})", end.signal, signal_name(end.signal));
    case format::EndReason::mpi_abort:
      return fmt::format("MPI_Abort (error code {})", end.signal);
    case format::EndReason::global_exit:
      return fmt::format("shmem_global_exit (status {})", end.signal);
  }
  return "unknown";
}

// The ranks that ended one way, in the order that way was first met (by rank).
struct Ending {
  const ProfileEnd* first = nullptr;
  std::vector<std::int64_t> ranks;
};

std::vector<Ending> endings(const RunSummary& run) {
  std::vector<Ending> groups;
  std::map<std::tuple<format::EndReason, std::uint32_t>, std::size_t> index;
  for (const ProfileEnd& end : run.end_reasons) {
    const std::uint32_t detail = end.reason == format::EndReason::exit ? 0 : end.signal;
    auto [at, inserted] = index.try_emplace({end.reason, detail}, groups.size());
    if (inserted) groups.push_back(Ending{&end, {}});
    groups[at->second].ranks.push_back(end.rank);
  }
  return groups;
}

// "rank 3", "ranks 0-2, 5": who, for the alarms' sentences.
std::string who(const char* noun, const Ending& e) {
  return fmt::format("{}{} {}", noun, e.ranks.size() == 1 ? "" : "s", analysis::rank_list(e.ranks));
}

void render_alarm(Out out, const Ending& e) {
  const bool one = e.ranks.size() == 1;
  const ProfileEnd& end = *e.first;
  const char* their = one ? "its" : "their";
  switch (end.reason) {
    case format::EndReason::exit:
      return;
    case format::EndReason::signal:
      fmt::format_to(out,
                     "  CRASHED: {} {} killed by {}; {} figures cover the run only up to that moment, and "
                     "intervals marked OPEN were cut short\n",
                     who("rank", e), one ? "was" : "were", signal_name(end.signal), their);
      return;
    case format::EndReason::mpi_abort:
      fmt::format_to(out,
                     "  ABORTED: {} called MPI_Abort (error code {}); {} figures stop there, and intervals "
                     "marked OPEN were cut short\n",
                     who("rank", e), end.signal, their);
      return;
    case format::EndReason::global_exit:
      fmt::format_to(out,
                     "  ENDED THE JOB: {} called shmem_global_exit (status {}); {} figures stop there, and "
                     "the launcher then terminated the other PEs\n",
                     who("PE", e), end.signal, their);
      return;
    case format::EndReason::flush:
      fmt::format_to(out,
                     "  NOT FINISHED: {} wrote {} profile{} with parperf_flush(); {} figures stop at that "
                     "moment\n",
                     who("rank", e), their, one ? "" : "s", their);
      return;
  }
}

}  // namespace

void render_run_endings(Out out, const RunSummary& run) {
  const std::vector<Ending> groups = endings(run);
  for (const Ending& e : groups) {
    if (e.ranks.size() == 1) {
      fmt::format_to(out, "  {:<12}rank {} ({}): {}\n", "ended", e.first->rank, printable(e.first->file),
                     end_text(*e.first));
    } else if (groups.size() == 1 && static_cast<std::int64_t>(e.ranks.size()) >= run.world_size) {
      fmt::format_to(out, "  {:<12}all {} ranks: {}\n", "ended", e.ranks.size(), end_text(*e.first));
    } else {
      fmt::format_to(out, "  {:<12}{}: {}\n", "ended", who("rank", e), end_text(*e.first));
    }
  }
  for (const Ending& e : groups) render_alarm(out, e);
}

}  // namespace parperf::report
