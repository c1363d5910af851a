// The per-thread call-path table of the sample handler (runtime/call_path_table.hpp): a path is
// stored once and counted, shared prefixes share nodes, paths are kept apart by interval, and a
// full table counts samples as dropped instead of growing.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "runtime/call_path_table.hpp"

namespace parperf::runtime {
namespace {

const Node* interval(std::uintptr_t n) { return reinterpret_cast<const Node*>(n * 64); }

TEST(CallPathTable, RepeatedSamplesOfOnePathAddCountsNotNodes) {
  CallPathTable* table = create_call_path_table(64);
  ASSERT_NE(table, nullptr);
  const std::uintptr_t path[] = {0x1010, 0x2020, 0x3030};  // innermost first
  for (int i = 0; i < 1000; ++i) table->add_sample(path, 3, interval(1));
  ASSERT_EQ(table->node_count.load(), 3u) << "one node per frame of the one path, whatever the samples";
  EXPECT_EQ(table->samples.get(), 1000u);
  EXPECT_EQ(table->dropped.get(), 0u);
  // Outermost first, each the parent of the next; the samples on the innermost frame.
  EXPECT_EQ(table->nodes[0].address, 0x3030u);
  EXPECT_EQ(table->nodes[0].parent, CallPathTable::kNoNode);
  EXPECT_EQ(table->nodes[1].parent, 0u);
  EXPECT_EQ(table->nodes[2].parent, 1u);
  EXPECT_EQ(table->nodes[2].frame, 0u) << "the interrupted instruction";
  EXPECT_EQ(table->nodes[1].frame, 1u) << "a return address";
  EXPECT_EQ(table->nodes[2].samples.get(), 1000u);
  EXPECT_EQ(table->nodes[0].samples.get(), 0u);
}

TEST(CallPathTable, PathsShareTheirCommonCallersAndIntervalsStayApart) {
  CallPathTable* table = create_call_path_table(64);
  ASSERT_NE(table, nullptr);
  const std::uintptr_t via_a[] = {0x9000, 0xa000, 0x1000};
  const std::uintptr_t via_b[] = {0x9000, 0xb000, 0x1000};
  table->add_sample(via_a, 3, interval(1));
  table->add_sample(via_b, 3, interval(1));
  EXPECT_EQ(table->node_count.load(), 5u) << "main shared, then via_a > g and via_b > g";
  table->add_sample(via_a, 3, interval(2));
  EXPECT_EQ(table->node_count.load(), 8u) << "the same path in another interval is another path";
}

TEST(CallPathTable, AFullTableCountsDroppedSamplesAndKeepsWhatItHas) {
  CallPathTable* table = create_call_path_table(4);
  ASSERT_NE(table, nullptr);
  for (std::uintptr_t leaf = 1; leaf <= 10; ++leaf) {
    const std::uintptr_t path[] = {leaf * 16, 0x5000};
    table->add_sample(path, 2, interval(1), 3);  // weight 3: a timer overrun of 2
  }
  EXPECT_EQ(table->node_count.load(), 4u);
  EXPECT_EQ(table->samples.get(), 30u);
  std::uint64_t recorded = 0;
  for (std::uint32_t i = 0; i < table->node_count.load(); ++i) recorded += table->nodes[i].samples.get();
  EXPECT_EQ(recorded, 9u) << "three paths fit (a caller and three leaves)";
  EXPECT_EQ(table->dropped.get(), 21u) << "every sample that found no room is counted";
}

TEST(CallPathTable, ASampleNamesItsLeafNodeWhichStaysTheSameAsTheTableGrows) {
  CallPathTable* table = create_call_path_table(8);
  ASSERT_NE(table, nullptr);
  const std::uintptr_t f[] = {0x1010, 0x2020};
  const std::uintptr_t g[] = {0x3030, 0x2020};
  const std::uint32_t leaf_f = table->add_sample(f, 2, interval(1));
  EXPECT_EQ(leaf_f, 1u) << "the caller is node 0, f's instruction node 1";
  EXPECT_EQ(table->add_sample(g, 2, interval(1)), 2u) << "g's path shares the caller";
  EXPECT_EQ(table->add_sample(f, 2, interval(1)), leaf_f)
      << "the trace's samples name nodes the profile keeps";
  const std::uintptr_t deep[] = {1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(table->add_sample(deep, 7, interval(1)), CallPathTable::kNoNode) << "a path that finds no room";
}

// The memo (walk_memo.hpp) continues a path from the node of its outer frames, found by an earlier
// sample: that must find the very nodes a lookup of the whole path finds, or a deep stack's samples
// would be split between two copies of its callers. The slots are placed by a hash of the path from
// the root, which a continued path takes from its outer node: 2000 random paths of up to 64 frames,
// over few distinct addresses so that paths share prefixes and slots collide (the table a quarter full).
TEST(CallPathTable, APathContinuedFromItsOuterNodeFindsTheNodesOfTheWholePath) {
  CallPathTable* table = create_call_path_table(1u << 16);
  ASSERT_NE(table, nullptr);
  std::mt19937_64 random(26);
  std::vector<std::vector<std::uintptr_t>> paths;
  for (int p = 0; p < 2000; ++p) {
    std::vector<std::uintptr_t> path(1 + random() % 64);
    for (std::uintptr_t& frame : path) frame = 0x400000 + 16 * (random() % 8);
    paths.push_back(std::move(path));
  }
  std::vector<std::uint32_t> leaves;
  for (const auto& path : paths)
    leaves.push_back(table->add_sample(path.data(), static_cast<std::uint32_t>(path.size()), interval(1)));
  const std::uint32_t nodes = table->node_count.load();
  ASSERT_GT(nodes, 1000u) << "the paths share some callers, not all";
  for (std::size_t p = 0; p < paths.size(); ++p) {
    const auto& path = paths[p];
    const auto count = static_cast<std::uint32_t>(path.size());
    std::vector<std::uint32_t> path_nodes(count);
    ASSERT_EQ(
        table->add_sample_from(path.data(), count, CallPathTable::kNoNode, interval(1), 1, path_nodes.data()),
        leaves[p]);
    const std::uint32_t from = 1 + static_cast<std::uint32_t>(random() % count);
    if (from == count) continue;
    EXPECT_EQ(table->add_sample_from(path.data(), from, path_nodes[from], interval(1), 1, nullptr), leaves[p])
        << "path " << p << " continued from its frame " << from << " of " << count
        << " found another leaf than the whole path";
  }
  EXPECT_EQ(table->node_count.load(), nodes) << "looking up known paths again added nodes";
  EXPECT_EQ(table->dropped.get(), 0u);
}

}  // namespace
}  // namespace parperf::runtime
