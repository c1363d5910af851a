#include "report/graph_links.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

namespace parperf::report {
namespace {

struct LinkedKind {
  std::string_view key;
  std::string_view words;  // after the count
  std::uint64_t analysis::GraphCounts::*count;
};

constexpr LinkedKind kLinked[] = {
    {"messages", "messages", &analysis::GraphCounts::messages},
    {"collectives", "collective instances", &analysis::GraphCounts::collectives},
    {"openmp_barriers", "OpenMP barrier instances", &analysis::GraphCounts::openmp_barriers},
    {"forks", "OpenMP forks", &analysis::GraphCounts::forks},
    {"lock_handovers", "lock handovers", &analysis::GraphCounts::lock_handovers},
    {"shmem_barriers", "OpenSHMEM barriers", &analysis::GraphCounts::shmem_barriers},
    {"shmem_waits", "OpenSHMEM waits", &analysis::GraphCounts::shmem_waits},
    {"task_creations", "task creations", &analysis::GraphCounts::task_creations},
    {"task_waits", "tasks waited for", &analysis::GraphCounts::task_waits},
    {"shmem_quiets", "OpenSHMEM quiets", &analysis::GraphCounts::shmem_quiets},
    {"shmem_collectives", "OpenSHMEM active-set collectives", &analysis::GraphCounts::shmem_collectives},
    {"window_completions", "MPI window synchronizations completing transfers",
     &analysis::GraphCounts::window_completions},
    {"window_lock_handovers", "MPI window lock handovers", &analysis::GraphCounts::window_lock_handovers},
    {"shmem_lock_handovers", "OpenSHMEM lock handovers", &analysis::GraphCounts::shmem_lock_handovers},
    {"window_epoch_links", "MPI post-start-complete-wait links", &analysis::GraphCounts::window_epoch_links},
};

struct UnlinkedKind {
  std::string_view key;
  std::uint64_t analysis::GraphUnlinked::*count;
};

constexpr UnlinkedKind kUnlinked[] = {
    {"sends", &analysis::GraphUnlinked::sends},
    {"receives", &analysis::GraphUnlinked::receives},
    {"incomplete_collectives", &analysis::GraphUnlinked::incomplete_collectives},
    {"nonblocking_collectives", &analysis::GraphUnlinked::nonblocking_collectives},
    {"shmem_collectives", &analysis::GraphUnlinked::shmem_collectives},
    {"shmem_waits", &analysis::GraphUnlinked::shmem_waits},
    {"shmem_locks", &analysis::GraphUnlinked::shmem_locks},
    {"window_waits", &analysis::GraphUnlinked::window_waits},
    {"outside_window", &analysis::GraphUnlinked::outside_window},
    {"cycles_broken", &analysis::GraphUnlinked::cycles_broken},
    {"task_pieces", &analysis::GraphUnlinked::task_pieces},
};

}  // namespace

nlohmann::ordered_json dependencies_json(const analysis::ActivityGraph& graph) {
  nlohmann::ordered_json linked = nlohmann::ordered_json::object(),
                         unlinked = nlohmann::ordered_json::object();
  for (const LinkedKind& k : kLinked) linked[std::string(k.key)] = graph.linked.*k.count;
  for (const UnlinkedKind& k : kUnlinked) unlinked[std::string(k.key)] = graph.unlinked.*k.count;
  return {{"linked", linked}, {"unlinked", unlinked}};
}

std::string linked_sentence(const analysis::ActivityGraph& graph) {
  std::string counts;
  for (const LinkedKind& k : kLinked)
    if (const std::uint64_t n = graph.linked.*k.count; n > 0)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, k.words);
  return counts.empty() ? "No dependency between locations was linked" : "Dependencies linked: " + counts;
}

}  // namespace parperf::report
