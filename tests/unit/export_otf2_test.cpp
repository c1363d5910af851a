// The OTF2 export (export/otf2_writer.hpp), read back by OTF2's own otf2-print: the archive opens,
// and holds the expected regions, Enter/Leave pairs and MPI records at corrected times.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "export/otf2_writer.hpp"
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
  std::string print(const std::string& options = "") {
    const auto out = dir_ / "printed.txt";
    const std::string command = std::string(PARPERF_OTF2_PRINT) + " " + options + " " +
                                (dir_ / "otf2" / "traces.otf2").string() + " > " + out.string() + " 2>&1";
    const int status = std::system(command.c_str());
    const std::string text = read_file_bytes(out);
    EXPECT_EQ(status, 0) << "otf2-print refused the archive:\n" << text;
    return text;
  }
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

TEST_F(export_otf2, OtfPrintReadsTheEnterLeaveAndMpiRecords) {
  export_archive();
  const std::string events = print();
  // Per rank: solve, step, the send or receive and the allreduce on thread 0, worker on thread 1.
  EXPECT_EQ(count_records(events, "ENTER"), 10) << events;
  EXPECT_EQ(count_records(events, "LEAVE"), 10);
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

TEST_F(export_otf2, DefinitionsNameTheRegionsRanksAndThreads) {
  export_archive();
  const std::string defs = print("-A --silent");
  for (const char* name :
       {"\"solve\"", "\"step\"", "\"worker\"", "\"MPI_Send\"", "\"MPI_Recv\"", "\"MPI_Allreduce\"",
        "\"rank 0\"", "\"rank 1\"", "\"thread 1\"", "\"MPI_COMM_WORLD\""})
    EXPECT_NE(defs.find(name), std::string::npos) << name << " is not defined:\n" << defs;
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

TEST_F(export_otf2, NonBlockingMessagesAreWrittenWhereTheyLeaveAndArriveAndCollectivesNameTheirRoot) {
  std::vector<format::Profile> profiles(2);
  analysis::TraceRun traces;
  for (std::int64_t rank : {0, 1})
    traces.ranks.push_back(nonblocking_rank(rank, profiles[static_cast<std::size_t>(rank)]));
  const analysis::SiteTable sites;
  const exports::TimelineNames names(traces, sites);
  exports::Otf2Writer writer(dir_ / "otf2", names);
  exports::export_timeline(traces, names, {}, {&writer});
  const std::string events = print();
  EXPECT_EQ(count_records(events, "ENTER"), 8) << events;
  ASSERT_EQ(count_records(events, "MPI_SEND"), 1) << "the MPI_Isend, where the message leaves";
  ASSERT_EQ(count_records(events, "MPI_RECV"), 1) << "the MPI_Wait that completed the MPI_Irecv";
  EXPECT_EQ(first_record(events, "MPI_SEND"), "MPI_SEND 0 2000") << "at rank 0's MPI_Isend";
  EXPECT_EQ(first_record(events, "MPI_RECV"), "MPI_RECV 1 3500") << "at the end of rank 1's MPI_Wait";
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_END"), 2);
  EXPECT_EQ(events.find("Root: NONE"), std::string::npos) << "the broadcast's root is known:\n" << events;
}

}  // namespace
}  // namespace parperf::test
