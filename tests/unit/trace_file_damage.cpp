#include "unit/trace_file_damage.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "format/memory_sink.hpp"
#include "format/record_writer.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/profile_values.hpp"

namespace parperf::test {
namespace {

using format::TraceEvent;

std::uint32_t below(SeededRandom& random, std::size_t n) {
  return n == 0 ? 0 : random(static_cast<std::uint32_t>(std::min<std::size_t>(n, 0xffffffffu)));
}

// A value a damaged field could hold: an extreme, or one near the old.
template <class T>
T damaged(T old, SeededRandom& random) {
  switch (random(11)) {
    case 0:
      return T(0);
    case 1:
      return T(1);
    case 2:
      return static_cast<T>(-1);
    case 3:
      return static_cast<T>(std::uint64_t{1} << 31);
    case 4:
      return static_cast<T>(0xffffffffu);
    case 5:
      return std::numeric_limits<T>::max();
    case 6:
      return std::numeric_limits<T>::min();
    case 7:
      return static_cast<T>(random(16));
    case 8:
      return static_cast<T>(old + 1);
    case 9:
      return static_cast<T>(old - 1);
    default:
      return static_cast<T>(old / 2);
  }
}

void damage_event(TraceEvent& e, const TraceEvent& other, std::uint64_t ticks_per_ms, SeededRandom& random) {
  const bool borrow = random(2) == 0;  // another event's value: plausible, yet not this event's
  switch (random(12)) {
    case 0:
      e.kind = other.kind;
      break;
    case 1: {
      const std::uint64_t shift = ticks_per_ms * random(5000) / 1000;  // up to 5 ms
      e.ticks = random(2) ? e.ticks + shift : e.ticks - std::min(e.ticks, shift);
      break;
    }
    case 2:
      e.site = borrow ? other.site : damaged(e.site, random);
      break;
    case 3:
      e.value = borrow ? other.value : damaged(e.value, random);
      break;
    case 4:
      e.duration = borrow ? other.duration : damaged(e.duration, random);
      break;
    case 5:
      e.wait = borrow ? std::min(other.wait, e.duration) : damaged(e.wait, random);
      break;
    case 6:
      e.bytes = borrow ? other.bytes : damaged(e.bytes, random);
      break;
    case 7:
      e.partner = borrow ? static_cast<std::int64_t>(random(8)) - 1 : damaged(e.partner, random);
      break;
    case 8:
      e.communicator = borrow ? other.communicator : damaged(e.communicator, random);
      break;
    case 9:
      e.match = borrow ? other.match + static_cast<std::int64_t>(random(3)) - 1 : damaged(e.match, random);
      break;
    case 10:
      e.event = damaged(e.event, random);
      break;
    default:
      e.sync = damaged(e.sync, random);
      break;
  }
}

void write_file_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::vector<std::uint8_t> encode_trace_file(const format::TraceFile& trace) {
  format::MemorySink sink;
  format::RecordWriter writer(sink);
  writer.file_header(format::trace_header());
  format::write_trace_process(writer, trace.process);
  for (const format::TraceBlock& block : trace.blocks) {
    std::vector<std::uint8_t> buffer(std::max<std::size_t>(1 << 16, block.events.size() * 256));
    format::TraceBlockEncoder encoder(buffer.data(), buffer.size(), block.header.base_ticks);
    for (const TraceEvent& e : block.events)
      if (!encoder.append(e)) throw std::logic_error("a test block's events outgrew its buffer");
    const std::vector<std::uint8_t> encoded = format::encoded_block(buffer.data(), buffer.size(), encoder);
    format::TraceBlockRecord header = block.header;
    header.compression = static_cast<std::uint32_t>(format::TraceCompression::none);
    header.event_count = encoder.event_count();
    header.raw_bytes = header.encoded_bytes = static_cast<std::uint32_t>(encoded.size());
    format::write_trace_block(writer, header, encoded);
  }
  for (const format::TraceSampleBlock& block : trace.sample_blocks)
    format::write_decoded_samples(writer, block.header, block.samples);
  if (trace.clock) format::write_trace_clock(writer, *trace.clock);
  writer.finish();
  return sink.bytes();
}

void write_trace_file(const std::filesystem::path& path, const format::TraceFile& trace) {
  write_file_bytes(path, encode_trace_file(trace));
}

void write_traced_run(const std::filesystem::path& directory, const analysis::TraceRun& run) {
  std::filesystem::create_directories(directory);
  for (const analysis::RankTrace& rank : run.ranks) {
    const std::string suffix = std::to_string(rank.rank);
    // The run's profile as the runtime would write it beside the trace: the process and its place in
    // the run, the program's site, and each traced thread with the program's root node.
    format::Profile profile = *rank.profile;
    const auto ranks = static_cast<std::int64_t>(run.ranks.size());
    profile.process.rank = profile.mpi.world_rank = rank.rank;
    profile.process.world_size = profile.mpi.world_size = ranks;
    profile.process.ticks_per_second = rank.trace->process.ticks_per_second;
    profile.process.hostname = "node";
    std::uint32_t program = 1, threads = 1;
    for (const format::Site& site : profile.sites) program = std::max(program, site.id + 1);
    profile.sites.push_back(make_site(program, 0, 0, "program", ""));
    for (const format::TraceBlock& block : rank.trace->blocks)
      threads = std::max(threads, block.header.thread + 1);
    for (std::uint32_t index = 0; index < threads; ++index) {
      format::Thread& thread = profile.threads.emplace_back();
      thread.index = index;
      thread.kind = index == 0 ? format::ThreadKind::initial : format::ThreadKind::openmp_worker;
      format::Node& root = thread.nodes.emplace_back();
      root.site = program;
      root.count = 1;
    }
    profile.process.thread_count = threads;
    write_profile_file(directory / ("profile." + suffix + ".ppf"), profile);
    write_trace_file(directory / ("trace." + suffix + ".ppt"), *rank.trace);
  }
}

void damage_trace(format::TraceFile& trace, SeededRandom& random) {
  std::vector<TraceEvent> all;
  for (const format::TraceBlock& b : trace.blocks) all.insert(all.end(), b.events.begin(), b.events.end());
  if (all.empty()) return;
  const std::uint64_t ticks_per_ms = std::max<std::uint64_t>(trace.process.ticks_per_second / 1000, 1);
  for (std::uint32_t changes = 1 + random(4); changes > 0; --changes) {
    const std::uint32_t what = random(24);
    if (what == 0) {
      switch (random(3)) {
        case 0:
          trace.process.ticks_per_second = damaged(trace.process.ticks_per_second, random);
          break;
        case 1:
          trace.process.origin_ticks = damaged(trace.process.origin_ticks, random);
          break;
        default:
          trace.process.skew_offset_ns = damaged(trace.process.skew_offset_ns, random);
          break;
      }
      continue;
    }
    if (what == 1 && trace.clock) {
      switch (random(3)) {
        case 0:
          trace.clock->ticks_per_second = damaged(trace.clock->ticks_per_second, random);
          break;
        case 1:
          trace.clock->end_ticks = damaged(trace.clock->end_ticks, random);
          break;
        default:
          trace.clock->lost_events = damaged(trace.clock->lost_events, random);
          break;
      }
      continue;
    }
    if (trace.blocks.empty()) return;
    format::TraceBlock& block = trace.blocks[below(random, trace.blocks.size())];
    if (what == 2) {
      switch (random(3)) {
        case 0:
          block.header.thread = damaged(block.header.thread, random);
          break;
        case 1:
          block.header.sequence = damaged(block.header.sequence, random);
          break;
        default:
          block.header.base_ticks = damaged(block.header.base_ticks, random);
          break;
      }
      continue;
    }
    if (what == 3) {  // a block lost, repeated, or moved to another thread
      const std::size_t other = below(random, trace.blocks.size());
      switch (random(3)) {
        case 0:
          trace.blocks.erase(trace.blocks.begin() + static_cast<std::ptrdiff_t>(other));
          break;
        case 1:
          trace.blocks.push_back(trace.blocks[other]);
          break;
        default:
          block.header.thread = trace.blocks[other].header.thread;
          break;
      }
      continue;
    }
    std::vector<TraceEvent>& events = block.events;
    if (events.empty()) continue;
    const std::size_t i = below(random, events.size());
    const auto at = [&](std::size_t k) { return events.begin() + static_cast<std::ptrdiff_t>(k); };
    switch (what) {
      case 4:
        events.erase(at(i));
        break;
      case 5:
        events.insert(at(i), events[i]);
        break;
      case 6:
        std::swap(events[i], events[std::min(events.size() - 1, i + 1 + random(3))]);
        break;
      case 7:
        events.insert(at(i), all[below(random, all.size())]);
        break;
      default:
        damage_event(events[i], all[below(random, all.size())], ticks_per_ms, random);
        break;
    }
  }
}

void damage_profile(format::Profile& profile, SeededRandom& random) {
  for (std::uint32_t changes = 1 + random(3); changes > 0; --changes) {
    const std::uint32_t what = random(6);
    if (what <= 2 && !profile.sites.empty()) {
      format::Site& site = profile.sites[below(random, profile.sites.size())];
      const format::Site& other = profile.sites[below(random, profile.sites.size())];
      if (what == 0) site.kind = other.kind;
      if (what == 1) site.name = other.name;
      if (what == 2) site.parent = random(2) ? other.id : damaged(site.parent, random);
    } else if (what == 3 && !profile.mpi.communicators.empty()) {
      format::Communicator& c = profile.mpi.communicators[below(random, profile.mpi.communicators.size())];
      switch (random(4)) {
        case 0:
          c.members_hash = damaged(c.members_hash, random);
          break;
        case 1:
          c.ordinal = damaged(c.ordinal, random);
          break;
        case 2:
          c.id = damaged(c.id, random);
          break;
        default:
          c.rank = static_cast<std::int64_t>(random(static_cast<std::uint32_t>(c.size) + 1));
          break;
      }
    } else if (what == 4) {
      profile.has_mpi = !profile.has_mpi;
    } else {
      profile.has_shmem = !profile.has_shmem;
    }
  }
}

}  // namespace parperf::test
