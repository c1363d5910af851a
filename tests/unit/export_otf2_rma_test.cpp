// The OTF2 export's one-sided records (export/otf2_rma.hpp), read back by otf2-print: MPI's puts,
// gets, fences, locks and post-start-complete-wait, and OpenSHMEM's transfers, quiet, barrier, locks,
// waits and active-set collectives, each with the window, target and completion a reader needs.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "export/otf2_rma.hpp"
#include "export/otf2_writer.hpp"
#include "format/shmem_active_set.hpp"
#include "format/site_kinds.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

using format::SiteKind;
using format::TraceEvent;
using format::TraceEventKind;

// otf2-print's lines of `record` ("RMA_PUT") on `location` (-1: any), in order.
std::vector<std::string> lines_of(const std::string& listing, const std::string& record, int location = -1) {
  std::istringstream lines(listing);
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, at;
    if (fields >> name >> at && name == record && (location < 0 || at == std::to_string(location)))
      out.push_back(line);
  }
  return out;
}

// The record names of `location`'s records, in order.
std::vector<std::string> records_of(const std::string& listing, int location) {
  std::istringstream lines(listing);
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, at;
    if (fields >> name >> at && at == std::to_string(location) &&
        name.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos)
      out.push_back(name);
  }
  return out;
}

// The number after `key` ("Matching: ") on `line`, -1 when the line has none.
long long number_after(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(line.substr(at + key.size()));
}

// A run of ranks built in memory: each rank's profile (its sites and communicators) and trace.
struct MemoryRun {
  explicit MemoryRun(std::size_t ranks) : profiles(ranks) {}
  std::vector<format::Profile> profiles;
  analysis::TraceRun traces;
  analysis::SiteTable sites;
  std::unique_ptr<exports::TimelineNames> names;

  void add_rank(std::int64_t rank, std::vector<format::Site> rank_sites, std::vector<TraceEvent> events) {
    format::Profile& profile = profiles[static_cast<std::size_t>(rank)];
    profile.process.rank = rank;
    profile.sites = std::move(rank_sites);
    format::TraceBlock block;
    block.events = std::move(events);
    block.header.event_count = static_cast<std::uint32_t>(block.events.size());
    auto trace = std::make_shared<format::TraceFile>();
    trace->process.rank = rank;
    trace->process.ticks_per_second = 1'000'000'000;
    trace->blocks.push_back(std::move(block));
    traces.ranks.push_back(analysis::RankTrace{rank, "trace.ppt", trace, &profile});
  }
  std::string export_to(const std::filesystem::path& dir) {
    names = std::make_unique<exports::TimelineNames>(traces, sites);
    exports::Otf2Writer writer(dir / "otf2", *names);
    exports::export_timeline(traces, *names, {}, {&writer});
    return otf2_print(dir);
  }
};

format::Site site(std::uint32_t id, SiteKind kind, const char* name) {
  format::Site s;
  s.id = id, s.kind = static_cast<std::uint32_t>(kind), s.name = name;
  return s;
}

TraceEvent operation(std::uint64_t ticks, std::uint32_t site, std::uint64_t duration,
                     std::int64_t partner = -1, std::uint32_t communicator = 0, std::int64_t match = 0,
                     std::uint64_t bytes = 0) {
  return {.kind = TraceEventKind::operation,
          .ticks = ticks,
          .site = site,
          .duration = duration,
          .bytes = bytes,
          .partner = partner,
          .communicator = communicator,
          .match = match};
}

// Gives a profile of 3 ranks MPI_COMM_WORLD (its CommunicatorRecord 0) and a window over the same
// ranks (1: the trace's communicator 2).
void with_window(format::Profile& profile, std::int64_t rank) {
  profile.has_mpi = true;
  for (std::uint32_t id : {0u, 1u}) {
    format::Communicator c;
    c.id = id, c.size = 3, c.rank = rank, c.members_hash = 0xabc, c.ordinal = id;
    profile.mpi.communicators.push_back(c);
  }
}

class export_otf2_rma : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_directory(testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

// Three MPI ranks and a window over all of them (each profile's communicator 1, the trace's 2):
// 1. fence, a put to the right neighbour, fence;
// 2. an exclusive lock of rank 0, a get of 16 bytes from it, the unlock;
// 3. rank 0 posts to the group {1, 2} and waits; ranks 1 and 2 start with the group {0}, put 32 bytes
//    into rank 0 and complete.
// Times in ns, the same on every clock.
MemoryRun mpi_window_run() {
  MemoryRun run(3);
  enum : std::uint32_t { app = 1, fence, put, get, lock, unlock, post, start, complete, wait };
  const std::vector<format::Site> sites = {site(app, SiteKind::user, "app"),
                                           site(fence, SiteKind::mpi_one_sided_sync, "MPI_Win_fence"),
                                           site(put, SiteKind::mpi_one_sided, "MPI_Put"),
                                           site(get, SiteKind::mpi_one_sided, "MPI_Get"),
                                           site(lock, SiteKind::mpi_one_sided_sync, "MPI_Win_lock"),
                                           site(unlock, SiteKind::mpi_one_sided_sync, "MPI_Win_unlock"),
                                           site(post, SiteKind::mpi_one_sided_sync, "MPI_Win_post"),
                                           site(start, SiteKind::mpi_one_sided_sync, "MPI_Win_start"),
                                           site(complete, SiteKind::mpi_one_sided_sync, "MPI_Win_complete"),
                                           site(wait, SiteKind::mpi_one_sided_sync, "MPI_Win_wait")};
  constexpr std::uint32_t kWindow = 2;  // the profile's communicator 1
  for (std::int64_t rank = 0; rank < 3; ++rank) {
    format::Profile& profile = run.profiles[static_cast<std::size_t>(rank)];
    with_window(profile, rank);
    const auto exclusive = static_cast<std::int64_t>(format::WindowLockType::exclusive);
    std::vector<TraceEvent> events = {{.kind = TraceEventKind::enter, .ticks = 500, .site = app},
                                      operation(1000, fence, 100, -1, kWindow, 0),
                                      operation(2000, put, 50, (rank + 1) % 3, kWindow, 0, 8),
                                      operation(3000, fence, 100, -1, kWindow, 1),
                                      operation(4000, lock, 10, 0, kWindow, exclusive),
                                      operation(4100, get, 20, 0, kWindow, 0, 16),
                                      operation(4200, unlock, 50, 0, kWindow)};
    if (rank == 0) {
      events.push_back(operation(5000, post, 10, 1, kWindow, 2));
      events.push_back(operation(5010, post, 0, 2, kWindow, format::kWindowGroupMember));
      events.push_back(operation(5050, wait, 300, -1, kWindow, 1));
    } else {
      events.push_back(operation(5000, start, 20, 0, kWindow, 1));
      events.push_back(operation(5100, put, 10, 0, kWindow, 0, 32));
      events.push_back(operation(5200, complete, 10, -1, kWindow, 1));
    }
    events.push_back({.kind = TraceEventKind::leave, .ticks = 6000, .site = app});
    run.add_rank(rank, sites, std::move(events));
  }
  return run;
}

TEST_F(export_otf2_rma,
       MpiTransfersAreRmaRecordsOnTheirWindowCompletedByTheSynchronizationThatCompletedThem) {
  MemoryRun run = mpi_window_run();
  const std::string events = run.export_to(dir_);
  const std::string defs = otf2_print(dir_, "-A --silent");
  EXPECT_EQ(lines_of(defs, "RMA_WIN").size(), 1u) << "one window, over its own communicator:\n" << defs;

  // Each rank's first thread is location rank·1 (one thread each): 0, 1, 2.
  for (int rank = 0; rank < 3; ++rank) {
    const std::vector<std::string> puts = lines_of(events, "RMA_PUT", rank);
    ASSERT_EQ(puts.size(), rank == 0 ? 1u : 2u) << "rank " << rank << "'s puts:\n" << events;
    EXPECT_EQ(number_after(puts[0], "Remote: "), (rank + 1) % 3) << puts[0];
    EXPECT_EQ(number_after(puts[0], "Bytes: "), 8) << puts[0];
    EXPECT_NE(puts[0].find(" 2000 "), std::string::npos)
        << "a put is written at its call's start: " << puts[0];
    const std::vector<std::string> gets = lines_of(events, "RMA_GET", rank);
    ASSERT_EQ(gets.size(), 1u) << events;
    EXPECT_EQ(number_after(gets[0], "Remote: "), 0) << gets[0];
    EXPECT_EQ(number_after(gets[0], "Bytes: "), 16) << gets[0];

    // Every transfer completes once, with its own matching id, at the end of the call that
    // completed it: the fence's (3100), the unlock's (4250), MPI_Win_complete's (5210).
    const std::vector<std::string> completions = lines_of(events, "RMA_OP_COMPLETE_BLOCKING", rank);
    std::vector<std::string> transfers = puts;
    transfers.insert(transfers.begin() + 1, gets[0]);
    ASSERT_EQ(completions.size(), transfers.size()) << events;
    const std::vector<std::string> ends = {" 3100 ", " 4250 ", " 5210 "};
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      EXPECT_EQ(number_after(completions[i], "Matching: "), number_after(transfers[i], "Matching: "))
          << completions[i] << " completes " << transfers[i];
      EXPECT_NE(completions[i].find(ends[i]), std::string::npos) << completions[i];
    }

    EXPECT_EQ(lines_of(events, "RMA_COLLECTIVE_BEGIN", rank).size(), 2u) << "both fences";
    const std::vector<std::string> fence_ends = lines_of(events, "RMA_COLLECTIVE_END", rank);
    ASSERT_EQ(fence_ends.size(), 2u);
    EXPECT_NE(fence_ends[0].find("BARRIER"), std::string::npos) << fence_ends[0];

    const std::vector<std::string> requests = lines_of(events, "RMA_REQUEST_LOCK", rank);
    ASSERT_EQ(requests.size(), 1u) << events;
    EXPECT_EQ(number_after(requests[0], "Remote: "), 0) << requests[0];
    EXPECT_NE(requests[0].find("EXCLUSIVE"), std::string::npos) << requests[0];
    EXPECT_NE(requests[0].find(" 4000 "), std::string::npos)
        << "requested at the call's start: " << requests[0];
    ASSERT_EQ(lines_of(events, "RMA_RELEASE_LOCK", rank).size(), 1u);

    EXPECT_EQ(lines_of(events, "RMA_GROUP_SYNC", rank).size(), 2u)
        << "rank " << rank << ": a post and a wait, or a start and a complete:\n"
        << events;
  }
  // Rank 0's post names both origins: its group sync comes after the further member, before the
  // post's Leave, and the wait's sync names the same group.
  const std::vector<std::string> syncs = lines_of(events, "RMA_GROUP_SYNC", 0);
  EXPECT_EQ(number_after(syncs[0], "Group: \"ranks 1, 2\" <"),
            number_after(syncs[1], "Group: \"ranks 1, 2\" <"))
      << syncs[0] << "\n"
      << syncs[1];
  EXPECT_NE(syncs[0].find("Group: \"ranks 1, 2\""), std::string::npos) << syncs[0];
  const std::vector<std::string> order = records_of(events, 0);
  const auto post_sync = std::find(order.begin(), order.end(), "RMA_GROUP_SYNC");
  ASSERT_NE(post_sync, order.end());
  EXPECT_EQ(*std::next(post_sync), "LEAVE") << "the post's Leave follows its group sync";
  EXPECT_EQ(*std::next(post_sync, 2), "ENTER") << "then the wait";
  EXPECT_NE(lines_of(events, "RMA_GROUP_SYNC", 1)[0].find("Group: \"ranks 0\""), std::string::npos)
      << lines_of(events, "RMA_GROUP_SYNC", 1)[0];
}

// A post whose window the trace does not name (an older collector's) is a plain region: its group's
// further member names nothing, and the next post's group is its own alone.
TEST_F(export_otf2_rma, APostWithoutItsWindowIsAPlainRegionAndLeavesNoMembersBehind) {
  MemoryRun run(3);
  enum : std::uint32_t { app = 1, post };
  const std::vector<format::Site> sites = {site(app, SiteKind::user, "app"),
                                           site(post, SiteKind::mpi_one_sided_sync, "MPI_Win_post")};
  for (std::int64_t rank = 0; rank < 3; ++rank) {
    format::Profile& profile = run.profiles[static_cast<std::size_t>(rank)];
    with_window(profile, rank);
    std::vector<TraceEvent> events = {{.kind = TraceEventKind::enter, .ticks = 500, .site = app}};
    if (rank == 0) {
      events.push_back(operation(1000, post, 10, 1, 0, 2));  // no window: communicator 0
      events.push_back(operation(1010, post, 0, 2, 0, format::kWindowGroupMember));
      events.push_back(operation(2000, post, 10, 2, 2, 1));  // the window, a group of rank 2
    }
    events.push_back({.kind = TraceEventKind::leave, .ticks = 3000, .site = app});
    run.add_rank(rank, sites, std::move(events));
  }
  const std::string events = run.export_to(dir_);
  const std::vector<std::string> syncs = lines_of(events, "RMA_GROUP_SYNC", 0);
  ASSERT_EQ(syncs.size(), 1u) << "only the post with its window synchronizes a group:\n" << events;
  EXPECT_NE(syncs[0].find("Group: \"ranks 2\""), std::string::npos) << syncs[0];
  EXPECT_EQ(lines_of(events, "LEAVE", 0).size(), 4u) << "both posts, app and the program are left:\n"
                                                     << events;
}

// Two PEs: a blocking put (complete at its own end), a non-blocking put (complete at the quiet), a
// barrier_all, a lock and its release, a wait_until, and a broadcast over the active set of both PEs
// from PE 1.
MemoryRun shmem_run() {
  MemoryRun run(2);
  enum : std::uint32_t { app = 1, put, put_nbi, quiet, barrier, set_lock, clear_lock, wait, broadcast, fadd };
  const std::vector<format::Site> sites = {site(app, SiteKind::user, "app"),
                                           site(put, SiteKind::shmem_put, "shmem_int_put"),
                                           site(put_nbi, SiteKind::shmem_put_nbi, "shmem_putmem_nbi"),
                                           site(quiet, SiteKind::shmem_memory_sync, "shmem_quiet"),
                                           site(barrier, SiteKind::shmem_barrier, "shmem_barrier_all"),
                                           site(set_lock, SiteKind::shmem_lock, "shmem_set_lock"),
                                           site(clear_lock, SiteKind::shmem_lock, "shmem_clear_lock"),
                                           site(wait, SiteKind::shmem_point_sync, "shmem_int_wait_until"),
                                           site(broadcast, SiteKind::shmem_broadcast, "shmem_broadcast64"),
                                           site(fadd, SiteKind::shmem_atomic, "shmem_int_atomic_fetch_add")};
  const std::int64_t both = format::shmem_active_set_match(0, 0, 2);
  constexpr std::int64_t kLock = format::kShmemLockInImage + 0x40;
  for (std::int64_t pe = 0; pe < 2; ++pe) {
    format::Profile& profile = run.profiles[static_cast<std::size_t>(pe)];
    profile.has_shmem = true;
    profile.shmem.pe = pe;
    profile.shmem.pe_count = 2;
    const std::int64_t other = 1 - pe;
    run.add_rank(pe, sites,
                 {{.kind = TraceEventKind::enter, .ticks = 500, .site = app},
                  operation(1000, put, 40, other, 0, 0, 4),
                  operation(1100, put_nbi, 10, other, 0, 0, 64),
                  operation(1200, fadd, 10, other, 0, 0, 4),
                  operation(1300, quiet, 30),
                  operation(1400, barrier, 100),
                  operation(1600, set_lock, 50, -1, 0, kLock),
                  operation(1700, clear_lock, 5, -1, 0, kLock),
                  operation(1800, wait, 100),
                  operation(2000, broadcast, 100, 1, 0, both, 8),
                  {.kind = TraceEventKind::leave, .ticks = 3000, .site = app}});
  }
  return run;
}

TEST_F(export_otf2_rma, OpenShmemCallsAreRmaRecordsOnTheSymmetricHeap) {
  MemoryRun run = shmem_run();
  const std::string events = run.export_to(dir_);
  const std::string defs = otf2_print(dir_, "-A --silent");
  EXPECT_EQ(lines_of(defs, "RMA_WIN").size(), 2u) << "the symmetric heap of all PEs and of the active set:\n"
                                                  << defs;
  for (int pe = 0; pe < 2; ++pe) {
    const std::vector<std::string> puts = lines_of(events, "RMA_PUT", pe);
    ASSERT_EQ(puts.size(), 2u) << events;
    EXPECT_EQ(number_after(puts[0], "Remote: "), 1 - pe) << puts[0];
    EXPECT_EQ(number_after(puts[1], "Bytes: "), 64) << puts[1];
    const std::vector<std::string> atomics = lines_of(events, "RMA_ATOMIC", pe);
    ASSERT_EQ(atomics.size(), 1u) << events;
    EXPECT_NE(atomics[0].find("FETCH_AND_ADD"), std::string::npos) << atomics[0];
    // The blocking put completes at its own end (1040), the atomic at its own (1210), the
    // non-blocking put at the quiet's end (1330).
    const std::vector<std::string> completions = lines_of(events, "RMA_OP_COMPLETE_BLOCKING", pe);
    ASSERT_EQ(completions.size(), 3u) << events;
    EXPECT_NE(completions[0].find(" 1040 "), std::string::npos) << completions[0];
    EXPECT_EQ(number_after(completions[0], "Matching: "), number_after(puts[0], "Matching: "));
    EXPECT_NE(completions[1].find(" 1210 "), std::string::npos) << completions[1];
    EXPECT_NE(completions[2].find(" 1330 "), std::string::npos) << completions[2];
    EXPECT_EQ(number_after(completions[2], "Matching: "), number_after(puts[1], "Matching: "));

    const std::vector<std::string> collectives = lines_of(events, "RMA_COLLECTIVE_END", pe);
    ASSERT_EQ(collectives.size(), 2u) << "the barrier and the broadcast:\n" << events;
    EXPECT_NE(collectives[0].find("BARRIER"), std::string::npos) << collectives[0];
    EXPECT_NE(collectives[1].find("BCAST"), std::string::npos) << collectives[1];
    EXPECT_EQ(number_after(collectives[1], "Root: "), 1) << collectives[1];
    EXPECT_NE(collectives[0].find("Window: \"symmetric heap of all 2 PEs\""), std::string::npos)
        << collectives[0];
    EXPECT_NE(collectives[1].find("Window: \"symmetric heap of active set"), std::string::npos)
        << collectives[1];

    const std::vector<std::string> acquired = lines_of(events, "RMA_ACQUIRE_LOCK", pe);
    const std::vector<std::string> released = lines_of(events, "RMA_RELEASE_LOCK", pe);
    ASSERT_EQ(acquired.size(), 1u) << events;
    ASSERT_EQ(released.size(), 1u) << events;
    EXPECT_EQ(number_after(acquired[0], "Lock: "), format::kShmemLockInImage + 0x40) << acquired[0];
    EXPECT_EQ(number_after(released[0], "Lock: "), format::kShmemLockInImage + 0x40) << released[0];
    EXPECT_EQ(lines_of(events, "RMA_WAIT_CHANGE", pe).size(), 1u) << events;
  }
}

TEST(Otf2RmaCall, NamesEachCallsRecords) {
  using exports::RmaAction;
  const auto kind = [](SiteKind k) { return static_cast<std::uint32_t>(k); };
  EXPECT_EQ(exports::rma_call(kind(SiteKind::mpi_one_sided), "MPI_Rput").action, RmaAction::transfer);
  EXPECT_FALSE(exports::rma_call(kind(SiteKind::mpi_one_sided), "MPI_Put").blocking)
      << "an MPI put completes at a synchronization";
  EXPECT_EQ(exports::rma_call(kind(SiteKind::mpi_one_sided), "MPI_Compare_and_swap").atomic,
            OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP);
  EXPECT_TRUE(exports::rma_call(kind(SiteKind::mpi_one_sided), "MPI_Fetch_and_op").fetches);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::mpi_one_sided_sync), "MPI_Win_sync").action, RmaAction::none);
  EXPECT_TRUE(exports::rma_call(kind(SiteKind::mpi_one_sided_sync), "MPI_Win_flush_local_all").completes);
  EXPECT_TRUE(exports::rma_call(kind(SiteKind::shmem_get), "shmem_long_get").blocking);
  EXPECT_FALSE(exports::rma_call(kind(SiteKind::shmem_get_nbi), "shmem_getmem_nbi").blocking);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::shmem_atomic), "shmem_int_finc").atomic,
            OTF2_RMA_ATOMIC_TYPE_FETCH_AND_INCREMENT);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::shmem_atomic), "shmem_long_atomic_inc").atomic,
            OTF2_RMA_ATOMIC_TYPE_INCREMENT);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::shmem_atomic), "shmem_int_cswap").atomic,
            OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::shmem_memory_sync), "shmem_fence").action, RmaAction::none)
      << "a fence orders, it completes nothing";
  EXPECT_TRUE(exports::rma_call(kind(SiteKind::shmem_memory_sync), "shmem_ctx_quiet").completes);
  EXPECT_FALSE(exports::rma_call(kind(SiteKind::shmem_barrier), "shmem_sync_all").completes);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::shmem_gather_scatter), "shmem_fcollect64").collective,
            OTF2_COLLECTIVE_OP_ALLGATHER);
  EXPECT_EQ(exports::rma_call(kind(SiteKind::mpi_send), "MPI_Send").action, RmaAction::none);
}

}  // namespace
}  // namespace parperf::test
