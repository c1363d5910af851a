// User events in the pupc style: a process-wide table of event kinds (name + printf-style
// description) and, per interval node, the statistics of each kind seen there.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/duration_stats.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct Node;

// Statistics of one event kind within one node. Owner-thread writes, like Node.
struct EventStats {
  std::uint32_t event = 0;
  Relaxed<std::uint64_t> starts;
  Relaxed<std::uint64_t> atomics;
  DurationStats durations;  // one entry per end: from a start to its end
  // The description formatted with the arguments of the first occurrence: formatting costs a
  // vsnprintf, paid once per (node, event) rather than on every occurrence.
  std::atomic<const char*> first_description{nullptr};
  std::atomic<EventStats*> next{nullptr};
};

struct EventKind {
  const char* name = nullptr;
  const char* description = nullptr;
};

inline constexpr std::uint32_t kMaxEventKinds = 4096;

// Registers an event kind; returns its id (1-based), or 0 when the table is full.
std::uint32_t create_event_kind(const char* name, const char* description) noexcept;
// The kind with `id`, or null for an unknown id.
const EventKind* event_kind(std::uint32_t id) noexcept;
std::uint32_t event_kind_count() noexcept;

// The node's statistics for `event`, created on first use (null when out of memory).
EventStats* event_stats_for(Node& node, std::uint32_t event) noexcept;

}  // namespace parperf::runtime
