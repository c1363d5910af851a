// NodeOrder (analysis/trace/node_order.hpp): an order of nodes kept as runs of consecutive ones, read
// back as the sequence it was given.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "analysis/trace/node_order.hpp"

namespace parperf::analysis {
namespace {

static_assert(std::forward_iterator<NodeOrder::Iterator>, "read as a range, in order");

std::vector<std::uint32_t> read_back(const NodeOrder& order) {
  std::vector<std::uint32_t> nodes;
  for (const std::uint32_t k : order) nodes.push_back(k);
  return nodes;
}

TEST(NodeOrder, ReadsBackTheNodesInTheOrderGivenAndKeepsARunOfConsecutiveOnes) {
  const std::vector<std::uint32_t> nodes = {0, 1, 2, 10, 11, 3, 4, 5, 6, 12, 20, 7};
  const NodeOrder order(nodes);
  EXPECT_EQ(read_back(order), nodes);
  EXPECT_EQ(order.size(), nodes.size());
  EXPECT_EQ(order.runs(), 6u) << "0-2, 10-11, 3-6, 12, 20, 7";
}

TEST(NodeOrder, AnyOrderOfAnyNodesComesBackAsGiven) {
  std::mt19937 random(3);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::uint32_t> nodes;
    auto next = static_cast<std::uint32_t>(random() % 5);
    for (int i = 0; i < 2000; ++i) {
      nodes.push_back(next);
      next = random() % 4 != 0 ? next + 1 : static_cast<std::uint32_t>(random() % 3000);  // mostly runs
    }
    const NodeOrder order(nodes);
    ASSERT_EQ(read_back(order), nodes) << "round " << round;
    EXPECT_LT(order.runs(), nodes.size()) << "consecutive nodes share a run";
    NodeOrder same;
    for (const std::uint32_t k : nodes) same.push_back(k);
    EXPECT_TRUE(same == order);
  }
}

TEST(NodeOrder, AnEmptyOneReadsNothing) {
  NodeOrder order;
  EXPECT_TRUE(order.empty());
  EXPECT_TRUE(read_back(order).empty());
  order.push_back(7);
  order.clear();
  EXPECT_TRUE(read_back(order).empty());
}

}  // namespace
}  // namespace parperf::analysis
