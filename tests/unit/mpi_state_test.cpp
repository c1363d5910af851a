// The MPI collector's state, driven as its wrappers drive it but without MPI: calls become
// operations of the runtime with bytes, partners and overlap (through the collector API);
// collectives enter a deterministic, bounded sample per communicator; clock exchanges and the
// injected skew reach the `mpi` section the collector writes into the profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>

#include "format/records.hpp"
#include "parperf/parperf.h"
#include "runtime/collector_api.h"
#include "runtime/mpi/call_record.hpp"
#include "runtime/mpi/clock_exchanges.hpp"
#include "runtime/mpi/communicator_samples.hpp"
#include "runtime/mpi/mpi_section.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

using format::SiteKind;

// A caller address of our own per call site, like __builtin_return_address gives a wrapper.
const void* caller(int site) { return reinterpret_cast<const char*>(&caller) + site; }

mpi::CallRecord call_at(int site, SiteKind kind, const char* name, std::uint64_t start, std::uint64_t end) {
  mpi::CallRecord c{};
  c.name = name;
  c.caller = caller(site);
  c.kind = kind;
  c.communicator = -1;
  c.start = start;
  c.end = end;
  c.partner = -1;
  return c;
}

const format::OperationStats* operation_named(const format::Profile& profile, const format::Node& node,
                                              const char* name) {
  for (const auto& op : node.operations) {
    const auto site = std::find_if(profile.sites.begin(), profile.sites.end(),
                                   [&](const format::Site& s) { return s.id == op.site; });
    if (site != profile.sites.end() && site->name == name) return &op;
  }
  return nullptr;
}

// The skew this test runs with (mpi_wrappers.cmake sets PARPERF_TEST_CLOCK_SKEW=0:5000000:0 for rank 0).
constexpr std::uint64_t kInjectedOffsetNs = 5000000;

TEST(MpiState, CallsBecomeOperationsWithBytesPartnersAndOverlap) {
  ASSERT_TRUE(parperf_collector_active());
  mpi::set_process(0, 4, 1, "Test MPI 1.0");
  const double per_ns = parperf_collector_ticks_per_ns();
  const std::uint64_t t0 = parperf_collector_now();
  const auto ticks = [&](double ns) { return static_cast<std::uint64_t>(ns * per_ns); };
  for (int partner : {3, 1, 70}) {
    mpi::CallRecord c = call_at(1, SiteKind::mpi_recv, "MPI_Recv", t0, t0 + ticks(2e6));
    c.bytes = 100;
    c.partner = partner;
    c.real_sync = ticks(1.5e6);
    mpi::record(c);
  }
  mpi::CallRecord wait = call_at(2, SiteKind::mpi_wait, "MPI_Waitall", t0, t0 + ticks(1e6));
  wait.overlap = ticks(3e6);
  mpi::record(wait);

  const auto profile = flush_and_read();
  ASSERT_TRUE(profile.has_mpi);
  EXPECT_EQ(profile.mpi.world_size, 4);
  EXPECT_EQ(profile.mpi.thread_level, 1);
  EXPECT_EQ(profile.mpi.library, "Test MPI 1.0");
  EXPECT_EQ(profile.process.world_size, 4) << "the MPI rank and size replace the environment's";
  const auto& root = main_thread(profile).nodes.front();
  const auto* recv = operation_named(profile, root, "MPI_Recv");
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(recv->count, 3u);
  EXPECT_EQ(recv->bytes, 300u);
  EXPECT_EQ(recv->partner_min, 1);
  EXPECT_EQ(recv->partner_max, 70);
  EXPECT_EQ(recv->partner_set, (1ull << 1) | (1ull << 3) | (1ull << 6)) << "70 mod 64 = 6";
  EXPECT_NEAR(ms(recv->wait_ns), 4.5, 0.2) << "real sync of three calls";
  EXPECT_NEAR(ms(recv->sum_ns), 6.0, 0.2);
  EXPECT_GE(recv->last_end_ns, recv->last_begin_ns + 1900000);
  EXPECT_GE(recv->last_begin_ns, kInjectedOffsetNs) << "time stamps carry the injected offset";
  const auto* waitall = operation_named(profile, root, "MPI_Waitall");
  ASSERT_NE(waitall, nullptr);
  EXPECT_NEAR(ms(waitall->overlap_ns), 3.0, 0.1);
  const auto site = std::find_if(profile.sites.begin(), profile.sites.end(),
                                 [&](const format::Site& s) { return s.id == recv->site; });
  EXPECT_EQ(site->kind, static_cast<std::uint32_t>(SiteKind::mpi_recv));
  EXPECT_NE(site->address, 0u) << "a collector's site carries its module-relative address";
}

TEST(MpiState, CollectiveSampleIsDeterministicAndBounded) {
  const std::int32_t world = mpi::add_communicator(0x1234, 0, 4, 0);
  const std::int32_t split = mpi::add_communicator(0x5678, 0, 2, 1);
  ASSERT_GE(world, 0);
  ASSERT_GE(split, 0);
  ASSERT_NE(world, split);
  const std::uint64_t base = parperf_collector_now();
  constexpr int kWorldCollectives = 1000;  // more than a sample holds: the stride must grow
  for (int i = 0; i < kWorldCollectives; ++i) {
    mpi::CallRecord c = call_at(3, SiteKind::mpi_barrier, "MPI_Barrier", base + 10 * i, base + 10 * i + 5);
    c.communicator = world;
    mpi::record(c);
    if (i % 100 == 0) {
      mpi::CallRecord b = call_at(4, SiteKind::mpi_broadcast, "MPI_Ibcast", base + 10 * i, base + 10 * i + 2);
      b.communicator = split;
      b.no_departure = true;
      mpi::record(b);
    }
  }
  const auto profile = flush_and_read();
  ASSERT_EQ(profile.mpi.communicators.size(), 2u);
  const auto& w = profile.mpi.communicators[static_cast<std::size_t>(world)];
  EXPECT_EQ(w.members_hash, 0x1234u);
  EXPECT_EQ(w.size, 4u);
  EXPECT_EQ(w.collectives, static_cast<std::uint64_t>(kWorldCollectives));
  EXPECT_EQ(w.stride, 4u) << "256 slots: 1000 instances need stride 4";
  EXPECT_EQ(w.instances.size(), 250u) << "every 4th of 1000";
  std::set<std::uint64_t> sequences;
  for (const auto& x : w.instances) {
    EXPECT_EQ(x.sequence % w.stride, 0u);
    EXPECT_GT(x.leave_ns, 0u);
    EXPECT_GE(x.leave_ns, x.arrive_ns);
    EXPECT_NE(x.node, format::kNoParent);
    sequences.insert(x.sequence);
  }
  EXPECT_EQ(sequences.size(), w.instances.size()) << "each kept sequence once, in order";
  EXPECT_EQ(*sequences.rbegin(), 996u);
  const auto& s = profile.mpi.communicators[static_cast<std::size_t>(split)];
  EXPECT_EQ(s.rank, 1);
  EXPECT_EQ(s.collectives, 10u);
  ASSERT_EQ(s.instances.size(), 10u);
  EXPECT_EQ(s.instances.front().leave_ns, 0u) << "a non-blocking collective has no departure";
}

TEST(MpiState, ClockExchangesAreWrittenPerPhaseAndRank) {
  const std::uint64_t now = parperf_collector_now();
  // Rank 0's halves for ranks 1..3 at init, and rank 2's at finalize.
  for (std::int64_t rank = 1; rank < 4; ++rank)
    mpi::record_clock_exchange(0, rank, 0, 0, now + 100 * rank, 0);
  mpi::record_clock_exchange(1, 2, 0, 0, now + 1000, 0);
  // The rank's own half (as if it were rank 0 talking to itself: tests only need the record).
  mpi::record_clock_exchange(0, 0, now, now + 50, 0, 50);
  mpi::set_network(1500, 5000000000ull);
  const auto profile = flush_and_read();
  EXPECT_EQ(profile.mpi.latency_ns, 1500u);
  EXPECT_EQ(profile.mpi.bandwidth_bytes_per_s, 5000000000ull);
  int master_records = 0, own_records = 0;
  for (const auto& c : profile.mpi.clock) {
    if (c.master_ns != 0) {
      ++master_records;
      EXPECT_GE(c.master_ns, kInjectedOffsetNs);
    } else {
      ++own_records;
      EXPECT_GE(c.recv_ns, c.send_ns);
    }
  }
  EXPECT_EQ(master_records, 4);
  EXPECT_EQ(own_records, 1);
}

}  // namespace
}  // namespace parperf::testing
