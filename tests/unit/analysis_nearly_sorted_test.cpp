// stable_sort_nearly_sorted (analysis/trace/nearly_sorted.hpp): the order std::stable_sort gives,
// checked on items with many equal keys (their first order is what tells a stable sort apart),
// nearly in order, far out of order (past the budget of moves), and in reverse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "analysis/trace/nearly_sorted.hpp"

namespace parperf::analysis {
namespace {

struct Item {
  int key = 0;
  std::uint32_t first_place = 0;  // where it was before sorting: equal keys must keep this order
  friend bool operator==(const Item&, const Item&) = default;
};

const auto by_key = [](const Item& a, const Item& b) { return a.key < b.key; };

// `count` items with keys from 0 up, each moved out of place by up to `spread` with probability
// `share`, and with `distinct` keys at most (few distinct keys: many equal ones).
std::vector<Item> items(std::size_t count, double share, int spread, int distinct, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::bernoulli_distribution out_of_place(share);
  std::uniform_int_distribution<int> by(-spread, spread);
  std::vector<Item> result(count);
  for (std::size_t i = 0; i < count; ++i) {
    int key = static_cast<int>(i) * distinct / static_cast<int>(count);
    if (out_of_place(random)) key += by(random);
    result[i] = {key, static_cast<std::uint32_t>(i)};
  }
  return result;
}

void expect_the_stable_order(std::vector<Item> given, const char* what) {
  std::vector<Item> expected = given;
  std::stable_sort(expected.begin(), expected.end(), by_key);
  stable_sort_nearly_sorted(given, by_key);
  ASSERT_EQ(given.size(), expected.size()) << what;
  for (std::size_t i = 0; i < given.size(); ++i)
    ASSERT_EQ(given[i], expected[i]) << what << ": place " << i << " holds the item first at "
                                     << given[i].first_place << ", std::stable_sort puts the one first at "
                                     << expected[i].first_place << " there";
}

TEST(NearlySorted, ItemsAFewPlacesOutGetTheOrderOfAStableSortWithEqualKeysInTheirFirstOrder) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    expect_the_stable_order(items(5000, 0.01, 12, 5000, seed), "1 % out by up to 12, distinct keys");
    expect_the_stable_order(items(5000, 0.2, 30, 500, seed), "20 % out by up to 30, keys ten times over");
    expect_the_stable_order(items(5000, 0.5, 3, 40, seed), "half out by up to 3, few keys");
  }
}

TEST(NearlySorted, ItemsFarOutOfOrderExhaustTheBudgetAndTheGeneralSortFinishesTheSameOrder) {
  for (std::uint32_t seed = 1; seed <= 10; ++seed) {
    expect_the_stable_order(items(4000, 1.0, 4000, 300, seed), "every item anywhere, many equal keys");
    expect_the_stable_order(items(3000, 0.05, 3000, 3000, seed), "5 % anywhere");
  }
  std::vector<Item> reversed(3000);
  for (std::uint32_t i = 0; i < reversed.size(); ++i) reversed[i] = {static_cast<int>(3000 - i) / 7, i};
  expect_the_stable_order(reversed, "in reverse, runs of 7 equal keys");
}

TEST(NearlySorted, EmptyOneAndSortedInputsAreLeftAsTheyAre) {
  expect_the_stable_order({}, "no items");
  expect_the_stable_order({{5, 0}}, "one item");
  expect_the_stable_order(items(1000, 0.0, 0, 10, 1), "already in order, equal keys");
}

}  // namespace
}  // namespace parperf::analysis
