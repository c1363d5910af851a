// The OTF2 export (export/otf2_writer.hpp), read back by OTF2's own otf2-print: the archive opens,
// and holds the expected regions, Enter/Leave pairs and MPI records at corrected times, and the
// call-path samples as CallingContextSample records among them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "export/otf2_calling_contexts.hpp"
#include "export/otf2_vocabulary.hpp"
#include "export/otf2_writer.hpp"
#include "export/timeline_samples.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

class export_otf2 : public ExportRunTest {
 protected:
  void export_archive() {
    export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
      return std::make_unique<exports::Otf2Writer>(dir_ / "otf2", names);
    });
  }
  // otf2-print's listing of the archive (events, or with `options` the definitions).
  std::string print(const std::string& options = "") { return otf2_print(dir_, options); }
};

// Lines of otf2-print's listing that begin with `record` (its records' names in capitals).
int count_records(const std::string& listing, const std::string& record) {
  std::istringstream lines(listing);
  int n = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(record + " ", 0) == 0) ++n;
  return n;
}

// "RECORD location timestamp" of the first `record` line of otf2-print's listing.
std::string first_record(const std::string& listing, const std::string& record) {
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, location, time;
    fields >> name >> location >> time;
    if (name == record) return name + " " + location + " " + time;
  }
  return "";
}

// "RECORD time" of each record of location `location`, in the order otf2-print lists them.
std::vector<std::string> records_of(const std::string& listing, int location) {
  std::istringstream lines(listing);
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, at, time;
    if (fields >> name >> at >> time && at == std::to_string(location)) out.push_back(name + " " + time);
  }
  return out;
}

// The text of `line` between `key` ("Region: \"") and the next quote.
std::string quoted_after(const std::string& line, const std::string& key) {
  const std::size_t start = line.find(key);
  if (start == std::string::npos) return "UNDEFINED";
  const std::size_t from = start + key.size();
  return line.substr(from, line.find('"', from) - from);
}

TEST_F(export_otf2, OtfPrintReadsTheEnterLeaveAndMpiRecords) {
  export_archive();
  const std::string events = print();
  // Per rank: the program on each thread; solve, step, the send or receive and the allreduce on
  // thread 0, worker on thread 1.
  EXPECT_EQ(count_records(events, "ENTER"), 14) << events;
  EXPECT_EQ(count_records(events, "LEAVE"), 14);
  EXPECT_EQ(count_records(events, "MPI_SEND"), 1);
  EXPECT_EQ(count_records(events, "MPI_RECV"), 1);
  EXPECT_EQ(first_record(events, "MPI_SEND"), "MPI_SEND 0 13000000") << "rank 0's send, at its start";
  EXPECT_NE(events.find("Communicator: \"MPI_COMM_WORLD\" <0>, Tag: 7, Length: 800"), std::string::npos)
      << "the profiles' communicator of both ranks, each at its world rank, is MPI_COMM_WORLD:\n"
      << events;
  EXPECT_EQ(first_record(events, "MPI_RECV"), "MPI_RECV 2 15000000")
      << "rank 1's receive, at its corrected end";
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_BEGIN"), 2);
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_END"), 2);
}

// Each rank's thread 0 has 5 samples (export_test_run.hpp): at 11 and 11.5 ms in solve, at 13 ms
// (weight 2) and 14 ms in step, on rank 0's clock. Each is a CallingContextSample on the thread's
// location (0: rank 0's thread 0, 2: rank 1's), among its Enter/Leave records in time order, a
// sample at an event's time before the event; the one of weight 2 twice, as parperf report
// --functions counts it.
TEST_F(export_otf2, SamplesAreCallingContextSamplesAmongTheirThreadsEventsInTimeOrder) {
  export_archive();
  const std::string events = print();
  EXPECT_EQ(count_records(events, "CALLING_CONTEXT_SAMPLE"), 2 * kSamplesPerRank) << events;
  for (const int location : {0, 2}) {
    const std::vector<std::string> all = records_of(events, location);
    const std::vector<std::string> head(all.begin(), all.begin() + std::min<std::size_t>(all.size(), 12));
    std::vector<std::string> expected = {"ENTER 10000000",  // the program
                                         "ENTER 10000000",  // solve
                                         "CALLING_CONTEXT_SAMPLE 11000000",
                                         "CALLING_CONTEXT_SAMPLE 11500000",
                                         "ENTER 12000000",  // step
                                         "CALLING_CONTEXT_SAMPLE 13000000",
                                         "CALLING_CONTEXT_SAMPLE 13000000",
                                         "ENTER 13000000"};  // MPI_Send or MPI_Recv
    if (location == 0)
      expected.insert(expected.end(), {"MPI_SEND 13000000", "CALLING_CONTEXT_SAMPLE 14000000",
                                       "LEAVE 14000000", "LEAVE 16000000"});
    else  // the receive lasts to 15 ms, where its message arrives
      expected.insert(expected.end(), {"CALLING_CONTEXT_SAMPLE 14000000", "MPI_RECV 15000000",
                                       "LEAVE 15000000", "LEAVE 16000000"});
    EXPECT_EQ(head, expected) << "location " << location << ":\n" << events;
  }
  // The contexts the samples name, and their unwind distances: the first sample enters all of its 4
  // nodes (4 + 1), the next makes progress in its leaf (1), the first in step enters step, main and
  // 0x3000 below solve (3 + 1).
  std::vector<std::string> samples;
  std::istringstream lines(events);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("CALLING_CONTEXT_SAMPLE ", 0) == 0 && records_of(line, 0).size() == 1) {
      const std::size_t distance = line.find("Unwind Distance: ");
      samples.push_back(quoted_after(line, "Calling Context: \"") + " " +
                        line.substr(distance + 17, line.find(',', distance) - distance - 17));
    }
  EXPECT_EQ(samples, (std::vector<std::string>{"0x2000 5", "0x2000 1", "0x3000 4", "0x3000 1", "0x3000 1"}))
      << events;
}

// The calling-context tree: the intervals the thread was in (their regions, those of the Enter and
// Leave records), then the functions; the timer with the profiles' period.
TEST_F(export_otf2, SampledStacksAreACallingContextTreeUnderTheIntervals) {
  export_archive();
  const std::string defs = print("-A --silent");
  std::vector<std::string> contexts;
  int solve_regions = 0;
  std::istringstream lines(defs);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("CALLING_CONTEXT ", 0) == 0)
      contexts.push_back(quoted_after(line, "Region: \"") + " < " + quoted_after(line, "Parent: \""));
    if (line.rfind("REGION ", 0) == 0 && line.find("Name: \"solve\"") != std::string::npos) ++solve_regions;
  }
  EXPECT_EQ(contexts,
            (std::vector<std::string>{"app < UNDEFINED", "solve < app", "0x1000 < solve", "0x2000 < 0x1000",
                                      "step < solve", "0x1000 < step", "0x3000 < 0x1000"}))
      << "one node per distinct (parent, region), both ranks' stacks sharing them:\n"
      << defs;
  EXPECT_EQ(solve_regions, 1) << "the samples' solve is the region solve's Enter and Leave name:\n" << defs;
  EXPECT_NE(defs.find("INTERRUPT_GENERATOR                    0  Name: \"parperf CPU-time timer\""),
            std::string::npos)
      << defs;
  EXPECT_NE(defs.find("Mode: TIME, Base: DECIMAL, Exponent: -9, Period: 1000000"), std::string::npos)
      << "the profiles' period, 1 ms:\n"
      << defs;
}

TEST_F(export_otf2, DefinitionsNameTheRegionsRanksAndThreads) {
  export_archive();
  const std::string defs = print("-A --silent");
  for (const char* name :
       {"\"solve\"", "\"step\"", "\"worker\"", "\"MPI_Send\"", "\"MPI_Recv\"", "\"MPI_Allreduce\"",
        "\"rank 0\"", "\"rank 1\"", "\"rank 0 thread 1\"", "\"MPI_COMM_WORLD\""})
    EXPECT_NE(defs.find(name), std::string::npos) << name << " is not defined:\n" << defs;
}

// The lines of otf2-print's listing that begin with `record` and name location `location`.
std::vector<std::string> lines_of(const std::string& listing, const std::string& record, int location) {
  std::istringstream lines(listing);
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, at;
    if (fields >> name >> at && name == record && at == std::to_string(location)) out.push_back(line);
  }
  return out;
}

// As other tools write OTF2 (Score-P names a location by process and thread, in its process's
// group): each of the 4 threads a location "rank R thread T" in the group "rank R", not four
// locations all named "thread 0" or "thread 1".
TEST_F(export_otf2, LocationsAreNamedByRankAndThreadInTheirRanksGroup) {
  export_archive();
  const std::string defs = print("-A --silent");
  for (int rank : {0, 1})
    for (int thread : {0, 1}) {
      const std::string name =
          "Name: \"rank " + std::to_string(rank) + " thread " + std::to_string(thread) + "\"";
      const std::string group = "Group: \"rank " + std::to_string(rank) + "\"";
      std::istringstream lines(defs);
      bool found = false;
      for (std::string line; std::getline(lines, line);)
        if (line.rfind("LOCATION ", 0) == 0 && line.find(name) != std::string::npos)
          found = found || line.find(group) != std::string::npos;
      EXPECT_TRUE(found) << "no location " << name << " in " << group << ":\n" << defs;
    }
}

// Each location's records lie inside the program's region, as when main is instrumented: rank 0's
// thread 0 (location 0) enters "app" first and leaves it last, and the samples' root context is
// that same region (SampledStacksAreACallingContextTreeUnderTheIntervals).
TEST_F(export_otf2, EveryLocationsRecordsLieInsideTheProgramRegion) {
  export_archive();
  const std::string events = print();
  for (int location : {0, 1, 2, 3}) {
    const std::vector<std::string> records = records_of(events, location);
    ASSERT_GE(records.size(), 2u) << "location " << location << ":\n" << events;
    EXPECT_EQ(records.front().substr(0, 6), "ENTER ") << "location " << location << ":\n" << events;
    EXPECT_EQ(records.back().substr(0, 6), "LEAVE ") << "location " << location << ":\n" << events;
    const std::vector<std::string> enters = lines_of(events, "ENTER", location);
    const std::vector<std::string> leaves = lines_of(events, "LEAVE", location);
    ASSERT_FALSE(enters.empty());
    EXPECT_NE(enters.front().find("Region: \"app\""), std::string::npos)
        << "location " << location << " does not begin in the program's region:\n"
        << events;
    EXPECT_NE(leaves.back().find("Region: \"app\""), std::string::npos)
        << "location " << location << " does not end in the program's region:\n"
        << events;
  }
}

TEST_F(export_otf2, WhatRemainsOfAnArchiveIsNotOverwritten) {
  std::filesystem::create_directories(dir_ / "otf2" / "traces");  // an archive whose anchor file was removed
  try {
    export_archive();
    FAIL() << "an export over part of an archive succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "otf2").string() +
                  ": already holds an OTF2 archive (traces): remove it or choose another directory");
  }
}

TEST_F(export_otf2, AnExistingArchiveIsNotOverwritten) {
  export_archive();
  try {
    export_archive();
    FAIL() << "a second export over the same archive succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("already holds an OTF2 archive"), std::string::npos) << e.what();
  }
}

// Two ranks, in memory: rank 0 sends with MPI_Isend and waits for the send; rank 1 posts an
// MPI_Irecv and the MPI_Wait that completes it names the sender and tag; both then call MPI_Bcast
// from root 0. Times in ns, the same on both clocks.
analysis::RankTrace nonblocking_rank(std::int64_t rank, format::Profile& profile) {
  using format::SiteKind;
  auto site = [](std::uint32_t id, SiteKind kind, const char* name) {
    format::Site s;
    s.id = id, s.kind = static_cast<std::uint32_t>(kind), s.name = name;
    return s;
  };
  profile.process.rank = rank;
  profile.sites = {site(1, SiteKind::user, "app"), site(2, SiteKind::mpi_isend, "MPI_Isend"),
                   site(3, SiteKind::mpi_wait, "MPI_Wait"), site(4, SiteKind::mpi_irecv, "MPI_Irecv"),
                   site(5, SiteKind::mpi_broadcast, "MPI_Bcast")};
  using format::TraceEventKind;
  format::TraceBlock block;
  block.events.push_back({.kind = TraceEventKind::enter, .ticks = 1000, .site = 1});
  if (rank == 0) {
    block.events.push_back({.kind = TraceEventKind::operation,
                            .ticks = 2000,
                            .site = 2,
                            .duration = 100,
                            .bytes = 16,
                            .partner = 1,
                            .match = 3});
    block.events.push_back({.kind = TraceEventKind::operation, .ticks = 3000, .site = 3, .duration = 100});
  } else {
    block.events.push_back({.kind = TraceEventKind::operation,
                            .ticks = 1500,
                            .site = 4,
                            .duration = 50,
                            .partner = 0,
                            .match = 3});
    block.events.push_back({.kind = TraceEventKind::operation,
                            .ticks = 2500,
                            .site = 3,
                            .duration = 1000,
                            .bytes = 16,
                            .partner = 0,
                            .match = 3});
  }
  block.events.push_back({.kind = TraceEventKind::operation,
                          .ticks = 4500,
                          .site = 5,
                          .duration = 100,
                          .bytes = 8,
                          .partner = 0});
  block.events.push_back({.kind = TraceEventKind::leave, .ticks = 6000, .site = 1});
  block.header.event_count = static_cast<std::uint32_t>(block.events.size());
  auto trace = std::make_shared<format::TraceFile>();
  trace->process.rank = rank;
  trace->process.ticks_per_second = 1'000'000'000;
  trace->blocks.push_back(std::move(block));
  return analysis::RankTrace{rank, "trace.ppt", trace, &profile};
}

// Both ranks of nonblocking_rank, with their names.
struct NonblockingRun {
  NonblockingRun() : names(traces, sites) {}
  std::vector<format::Profile> profiles = std::vector<format::Profile>(2);
  analysis::TraceRun traces = [this] {
    analysis::TraceRun t;
    for (std::int64_t rank : {0, 1})
      t.ranks.push_back(nonblocking_rank(rank, profiles[static_cast<std::size_t>(rank)]));
    return t;
  }();
  analysis::SiteTable sites;
  exports::TimelineNames names;
};

TEST_F(export_otf2, NonBlockingMessagesAreWrittenWhereTheyLeaveAndArriveAndCollectivesNameTheirRoot) {
  const NonblockingRun run;
  const exports::TimelineNames& names = run.names;
  const analysis::TraceRun& traces = run.traces;
  exports::Otf2Writer writer(dir_ / "otf2", names);
  exports::export_timeline(traces, names, {}, {&writer});
  const std::string events = print();
  EXPECT_EQ(count_records(events, "ENTER"), 10) << "app and 3 calls on each rank, inside its program:\n"
                                                << events;
  ASSERT_EQ(count_records(events, "MPI_SEND"), 1) << "the MPI_Isend, where the message leaves";
  ASSERT_EQ(count_records(events, "MPI_RECV"), 1) << "the MPI_Wait that completed the MPI_Irecv";
  EXPECT_EQ(first_record(events, "MPI_SEND"), "MPI_SEND 0 2000") << "at rank 0's MPI_Isend";
  EXPECT_EQ(first_record(events, "MPI_RECV"), "MPI_RECV 1 3500") << "at the end of rank 1's MPI_Wait";
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_END"), 2);
  EXPECT_EQ(events.find("Root: NONE"), std::string::npos) << "the broadcast's root is known:\n" << events;
  // An 8-byte MPI_Bcast from rank 0 on 2 ranks, as Score-P writes it: the root sends to both ranks
  // (16 bytes) and receives its own 8; rank 1 sends nothing and receives 8.
  const std::vector<std::string> root_end = lines_of(events, "MPI_COLLECTIVE_END", 0);
  const std::vector<std::string> leaf_end = lines_of(events, "MPI_COLLECTIVE_END", 1);
  ASSERT_EQ(root_end.size(), 1u) << events;
  ASSERT_EQ(leaf_end.size(), 1u) << events;
  EXPECT_NE(root_end[0].find("Sent: 16, Received: 8"), std::string::npos) << root_end[0];
  EXPECT_NE(leaf_end[0].find("Sent: 0, Received: 8"), std::string::npos) << leaf_end[0];
  const std::string defs = print("-A --silent");
  EXPECT_EQ(defs.find("CALLING_CONTEXT"), std::string::npos)
      << "a run without samples has no calling context";
  EXPECT_EQ(defs.find("INTERRUPT_GENERATOR"), std::string::npos) << defs;
}

// A message's partner that is no member of its communicator (a damaged trace's, or a rank whose trace
// is missing) has no rank in it to name: the call is written as a region without its MPI_Send
// record, where the partner's number cut to 32 bits named another member (here rank 5 of 2).
TEST_F(export_otf2, AMessageToAProcessOutsideItsCommunicatorIsWrittenWithoutItsMpiRecord) {
  NonblockingRun run;
  auto damaged = std::make_shared<format::TraceFile>(*run.traces.ranks[0].trace);
  damaged->blocks[0].events[1].partner = 5;  // rank 0's MPI_Isend
  run.traces.ranks[0].trace = damaged;
  exports::Otf2Writer writer(dir_ / "otf2", run.names);
  exports::export_timeline(run.traces, run.names, {}, {&writer});
  const std::string events = print();
  EXPECT_EQ(count_records(events, "ENTER"), 10) << "every call is still written:\n" << events;
  EXPECT_EQ(count_records(events, "MPI_SEND"), 0) << "no member of MPI_COMM_WORLD is rank 5:\n" << events;
  EXPECT_EQ(count_records(events, "MPI_RECV"), 1) << "rank 1's receive names rank 0, a member";
}

// A sampled function named as a site is that site's region: a sample of rank 0 at 4550 ns, inside its
// MPI_Bcast (4500 to 4600 ns), with the stack app > main > MPI_Bcast (the wrapper's symbol) names
// the region of the Enter and Leave around it; main, no site's name, gets a region of its own. The
// sample was taken in app with value 7: a property of app's context.
TEST_F(export_otf2, ASampledFunctionNamedAsASiteSharesItsRegion) {
  const NonblockingRun run;
  const exports::TimelineNames& names = run.names;
  const analysis::TraceRun& traces = run.traces;
  analysis::TraceSamples samples;
  samples.stacks = {
      {{"app=7"}, {{1, 7}}, 0, {{"main", "app.c", 3, "app", 0x10}, {"MPI_Bcast", "", 0, "app", 0x40}}}};
  samples.threads = {{0, 0, {{4550, 4550, 1, 0}}, 0, 0}};
  samples.samples = 1;
  exports::Otf2Writer writer(dir_ / "otf2", names);
  writer.samples_ahead(
      exports::TimelineSamples{samples, 0});  // as export_timeline does before the first item
  exports::export_timeline(traces, names, {}, {&writer});
  const std::string events = print();
  const std::vector<std::string> rank0 = records_of(events, 0);
  const std::vector<std::string> tail(rank0.end() - std::min<std::size_t>(rank0.size(), 7), rank0.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"ENTER 4500", "MPI_COLLECTIVE_BEGIN 4500",
                                            "CALLING_CONTEXT_SAMPLE 4550", "MPI_COLLECTIVE_END 4600",
                                            "LEAVE 4600", "LEAVE 6000", "LEAVE 6000"}))
      << "app left at 6000 ns, then the program around it:\n"
      << events;
  const std::string defs = print("-A --silent");
  int bcast_regions = 0;
  std::string main_region;
  std::istringstream lines(defs);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("REGION ", 0) == 0 && line.find("Name: \"MPI_Bcast\"") != std::string::npos)
      ++bcast_regions;
    if (line.rfind("REGION ", 0) == 0 && line.find("Name: \"main\"") != std::string::npos) main_region = line;
  }
  EXPECT_EQ(bcast_regions, 1) << "the sampled MPI_Bcast is the region the Enter and Leave name:\n" << defs;
  EXPECT_NE(main_region.find("Role: FUNCTION, Paradigm: SAMPLING"), std::string::npos) << defs;
  EXPECT_NE(defs.find("Region: \"MPI_Bcast\""), std::string::npos) << defs;
  const std::size_t property = defs.find("CALLING_CONTEXT_PROPERTY ");
  ASSERT_NE(property, std::string::npos) << "app's value 7, a property of its context:\n" << defs;
  const std::string line = defs.substr(property, defs.find('\n', property) - property);
  EXPECT_NE(line.find("Calling Context: \"app\" <0>, Name: \"value\""), std::string::npos) << line;
  EXPECT_NE(line.find("Type: INT64, Value: 7"), std::string::npos) << line;
}

// The calling-context tree by construction: three stacks under the intervals site 1 > site 2 (value
// 3 or 4) or site 1 alone, then main and f. A node is a (parent, region, source line, value): the
// stacks share what they have in common from the root down, and no more.
TEST(Otf2CallingContexts, StacksShareTheirCommonNodesAndSayWhatWasEnteredSinceTheLastSample) {
  analysis::TraceSamples samples;
  const analysis::SampleStackFrame main_at_5{"main", "a.c", 5, "app", 0x10},
      f_at_9{"f", "a.c", 9, "app", 0x20}, main_at_7{"main", "a.c", 7, "app", 0x18};
  samples.stacks = {{{}, {{1, 0}, {2, 3}}, 0, {main_at_5, f_at_9}},
                    {{}, {{1, 0}, {2, 4}}, 0, {main_at_5, f_at_9}},
                    {{}, {{1, 0}}, 0, {main_at_7}}};
  exports::Otf2CallingContexts contexts;
  auto region = [](std::uint32_t site) { return static_cast<OTF2_RegionRef>(100 + site); };
  const OTF2_CallingContextRef first = contexts.context(samples, 0, region);
  EXPECT_EQ(first, 3u) << "site 1, site 2 = 3, main, f: four new nodes";
  EXPECT_EQ(contexts.context(samples, 0, region), first) << "the same stack, the same context";
  const OTF2_CallingContextRef second = contexts.context(samples, 1, region);
  EXPECT_EQ(second, 6u) << "site 2 with another value is another node, and main and f below it";
  const OTF2_CallingContextRef third = contexts.context(samples, 2, region);
  EXPECT_EQ(third, 7u) << "main at another line, under site 1";

  EXPECT_EQ(contexts.unwind_distance(OTF2_UNDEFINED_CALLING_CONTEXT, first), 5u)
      << "a location's first sample: its 4 nodes entered, then the undefined root";
  EXPECT_EQ(contexts.unwind_distance(first, first), 1u) << "the same stack: its leaf made progress";
  EXPECT_EQ(contexts.unwind_distance(first, second), 4u) << "site 2 = 4, main, f entered below site 1";
  EXPECT_EQ(contexts.unwind_distance(second, third), 2u) << "main at 7 entered below site 1";
  EXPECT_EQ(contexts.unwind_distance(second, 0), 1u) << "back in site 1: it made progress, nothing entered";

  std::vector<std::string> functions;
  contexts.prepare(
      [&](const exports::Otf2CallingContexts::Function& f) {
        functions.push_back(f.name + " " + f.module + " " + f.file);
        return static_cast<OTF2_RegionRef>(functions.size());
      },
      [](std::string_view) { return OTF2_StringRef{0}; });
  EXPECT_EQ(functions, (std::vector<std::string>{"main app a.c", "f app a.c"}))
      << "one region per function, whatever the line";
}

// MpiCollectiveEnd's sizes as Score-P writes them, from what the runtime records: sent plus
// received as the call's arguments say (an 8-byte MPI_Allreduce records 16).
TEST(Otf2CollectiveSizes, FollowScorePsConventionForEachCollective) {
  using exports::collective_sizes;
  auto sizes = [](OTF2_CollectiveOp op, std::uint64_t bytes, bool root, std::uint64_t ranks) {
    const exports::CollectiveSizes s = collective_sizes(op, bytes, root, ranks);
    return std::pair(s.sent, s.received);
  };
  using Sizes = std::pair<std::uint64_t, std::uint64_t>;
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_ALLREDUCE, 16, false, 2), Sizes(16, 16))
      << "an 8-byte MPI_Allreduce on 2 ranks: 8 bytes to and from each, not 16 sent and 0 received";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_ALLREDUCE, 16, false, 4), Sizes(32, 32)) << "on 4 ranks";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_BCAST, 8, true, 4), Sizes(32, 8)) << "the root of an 8-byte MPI_Bcast";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_BCAST, 8, false, 4), Sizes(0, 8)) << "the others";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_REDUCE, 8, true, 4), Sizes(8, 32)) << "the root of an 8-byte MPI_Reduce";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_REDUCE, 8, false, 4), Sizes(8, 0));
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_GATHER, 40, true, 4), Sizes(8, 32)) << "the root gathers 4 blocks of 8";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_GATHER, 8, false, 4), Sizes(8, 0));
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_SCATTER, 40, true, 4), Sizes(32, 8));
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_SCATTER, 8, false, 4), Sizes(0, 8));
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_ALLGATHER, 40, false, 4), Sizes(32, 32)) << "b + N·b recorded";
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_ALLTOALL, 64, false, 4), Sizes(32, 32));
  EXPECT_EQ(sizes(OTF2_COLLECTIVE_OP_BARRIER, 0, false, 4), Sizes(0, 0));
}

}  // namespace
}  // namespace parperf::test
