// The HTML report's timeline (export/timeline_overview.hpp): its tracks in rank, thread and lane
// order, whatever order the ranks' first events came in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "export/timeline_overview.hpp"

namespace parperf::test {
namespace {

exports::TimelineItem slice(exports::ItemKind kind, std::int64_t rank, std::uint64_t at) {
  exports::TimelineItem item;
  item.kind = kind;
  item.rank = rank;
  item.timestamp = at;
  item.name = "work";
  return item;
}

TEST(export_timeline_overview, TracksAreListedByRankNotByTheirFirstEvent) {
  exports::TimelineOverview overview;
  // Ranks 0, 1, 3, 2 begin in that order; each slice lasts 10 ns from 10 × (its position).
  const std::vector<std::int64_t> first_seen = {0, 1, 3, 2};
  for (std::size_t k = 0; k < first_seen.size(); ++k)
    overview.item(slice(exports::ItemKind::slice_begin, first_seen[k], 10 * k));
  for (std::size_t k = 0; k < first_seen.size(); ++k)
    overview.item(slice(exports::ItemKind::slice_end, first_seen[k], 10 * k + 100));
  overview.finish();
  const auto& json = overview.json();
  EXPECT_EQ(json["tracks"], (nlohmann::ordered_json{"rank 0 thread 0", "rank 1 thread 0", "rank 2 thread 0",
                                                    "rank 3 thread 0"}))
      << "the timeline lists the ranks out of order";
  // The slices, in start order, are ranks 0, 1, 3, 2: each on its own rank's track.
  EXPECT_EQ(json["slices"]["track"], (nlohmann::ordered_json{0, 1, 3, 2})) << json.dump();
}

}  // namespace
}  // namespace parperf::test
