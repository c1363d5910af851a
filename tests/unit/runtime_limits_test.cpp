// Depth limit and name filters (this executable runs with PARPERF_MAX_DEPTH=4 and
// PARPERF_EXCLUDE=hidden*, see runtime.cmake).
#include <gtest/gtest.h>

#include "parperf/parperf.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

void nest(int level, int deepest) {
  if (level > deepest) return;
  const std::string name = "lim_" + std::to_string(level);
  parperf_interval_begin_named(name.c_str(), PARPERF_KIND_USER, nullptr, 0, 0);
  nest(level + 1, deepest);
  parperf_interval_end_named(name.c_str());
}

TEST(RuntimeLimits, NestingBeyondTheMaximumDepthIsDroppedAndCounted) {
  nest(1, 6);
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"lim_1"});
  ASSERT_NE(thread, nullptr);
  EXPECT_NE(find_node(profile, *thread, {"lim_1", "lim_2", "lim_3", "lim_4"}), nullptr)
      << "depth 4 is recorded";
  EXPECT_EQ(find_node(profile, *thread, {"lim_1", "lim_2", "lim_3", "lim_4", "lim_5"}), nullptr)
      << "depth 5 exceeds PARPERF_MAX_DEPTH=4";
  EXPECT_EQ(profile.process.max_depth, 4u);
  EXPECT_EQ(profile.process.dropped_intervals, 1u) << "lim_5 was cut (with lim_6 inside it)";
}

TEST(RuntimeLimits, AnExcludedIntervalIsTransparentToItsChildren) {
  {
    PARPERF_SCOPE("lim_visible_outer");
    PARPERF_SCOPE("hidden_middle");
    PARPERF_SCOPE("lim_visible_inner");
  }
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"lim_visible_outer"});
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(find_node(profile, *thread, {"lim_visible_outer", "hidden_middle"}), nullptr);
  const auto* inner = find_node(profile, *thread, {"lim_visible_outer", "lim_visible_inner"});
  ASSERT_NE(inner, nullptr) << "children of an excluded interval attach to its parent";
  EXPECT_EQ(inner->count, 1u);
}

}  // namespace
}  // namespace parperf::testing
