// Decoded-model values for hand-built test profiles, by the fields a test states (the records of
// format/records.hpp list their fields in file order, with the statistics in a base).
#pragma once

#include <cstdint>
#include <string>

#include "format/profile.hpp"

namespace parperf::test {

// A site the program names, or (with an address) one a collector found in `module`.
inline format::Site make_site(std::uint32_t id, std::uint32_t kind, std::int64_t line, std::string name,
                              std::string file, std::uint64_t address = 0, std::uint64_t end_address = 0,
                              std::uint32_t parent = format::kNoParent, std::string module = {}) {
  format::Site site;
  site.address = address;
  site.end_address = end_address;
  site.parent = parent;
  site.module = std::move(module);
  site.id = id;
  site.kind = kind;
  site.line = line;
  site.name = std::move(name);
  site.file = std::move(file);
  return site;
}

// `ends` completed start/end pairs whose durations sum to `sum_ns`.
inline format::EventStats make_event_stats(std::uint32_t event, std::uint64_t starts, std::uint64_t ends,
                                           std::uint64_t atomics, std::uint64_t sum_ns, std::uint64_t min_ns,
                                           std::uint64_t max_ns, std::string first_description) {
  format::EventStats stats;
  stats.event = event;
  stats.starts = starts;
  stats.count = ends;
  stats.atomics = atomics;
  stats.sum_ns = sum_ns;
  stats.min_ns = min_ns;
  stats.max_ns = max_ns;
  stats.first_description = std::move(first_description);
  return stats;
}

inline format::ClockSync make_clock_sync(format::ClockPhase phase, std::int64_t rank, std::uint64_t send_ns,
                                         std::uint64_t recv_ns, std::uint64_t master_ns,
                                         std::uint64_t round_trip_ns) {
  format::ClockSync sync;
  sync.phase = phase;
  sync.rank = rank;
  sync.send_ns = send_ns;
  sync.recv_ns = recv_ns;
  sync.master_ns = master_ns;
  sync.round_trip_ns = round_trip_ns;
  return sync;
}

inline format::Communicator make_communicator(std::uint32_t id, std::uint32_t size, std::int64_t rank,
                                              std::uint64_t members_hash, std::uint32_t ordinal,
                                              std::uint64_t collectives, std::uint64_t stride) {
  format::Communicator comm;
  comm.id = id;
  comm.size = size;
  comm.rank = rank;
  comm.members_hash = members_hash;
  comm.ordinal = ordinal;
  comm.collectives = collectives;
  comm.stride = stride;
  return comm;
}

}  // namespace parperf::test
