// The OpenSHMEM collector's state, driven as its wrappers drive it but without OpenSHMEM: once the
// PE is known, every put, get and atomic adds to its row of the traffic matrix, which the `shmem`
// section of the profile carries, cell by cell, exactly.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "format/records.hpp"
#include "runtime/collector_api.h"
#include "runtime/shmem/shmem_section.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

using format::OneSidedOperation;

TEST(ShmemState, TrafficMatrixRowReachesTheProfileExactly) {
  ASSERT_TRUE(parperf_collector_active());
  shmem::add_traffic(OneSidedOperation::put, 1, 999);  // before the PE is known: not counted
  shmem::set_process(0, 4);                            // PE 0: flush_and_read reads profile.0.ppf
  shmem::set_process(1, 8);                            // a second init changes nothing
  for (int i = 0; i < 10; ++i) shmem::add_traffic(OneSidedOperation::put, 3, 4000);
  for (int i = 0; i < 7; ++i) shmem::add_traffic(OneSidedOperation::get, 1, 2400);
  shmem::add_traffic(OneSidedOperation::atomic, 0, 4);
  shmem::add_traffic(OneSidedOperation::put, 4, 8);   // no PE 4 of 4: not counted
  shmem::add_traffic(OneSidedOperation::put, -1, 8);  // nor PE -1

  EXPECT_EQ(shmem::traffic_to(OneSidedOperation::put, 3).calls, 10u);
  EXPECT_EQ(shmem::traffic_to(OneSidedOperation::put, 1).calls, 0u) << "a put before shmem_init was counted";

  const format::Profile profile = flush_and_read();
  ASSERT_TRUE(profile.has_shmem) << "the profile has no shmem section";
  EXPECT_EQ(profile.shmem.pe, 0);
  EXPECT_EQ(profile.shmem.pe_count, 4);
  EXPECT_EQ(profile.process.world_size, 4) << "the PE count is the process count";
  std::map<std::tuple<std::int64_t, OneSidedOperation>, std::pair<std::uint64_t, std::uint64_t>> cells;
  for (const auto& row : profile.shmem.traffic) cells[{row.target, row.operation}] = {row.calls, row.bytes};
  const decltype(cells) expected = {{{3, OneSidedOperation::put}, {10, 40000}},
                                    {{1, OneSidedOperation::get}, {7, 16800}},
                                    {{0, OneSidedOperation::atomic}, {1, 4}}};
  EXPECT_EQ(cells, expected);
}

}  // namespace
}  // namespace parperf::testing
