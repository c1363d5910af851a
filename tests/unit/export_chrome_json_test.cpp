// The Chrome trace-event JSON export (export/chrome_json_writer.hpp), parsed with nlohmann-json and
// checked as chrome://tracing needs it: processes and threads named, "B"/"E" nested per thread,
// times in µs and in order, arguments, the flow's "s" before its "f", the lost-time counters.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/whole_number.hpp"
#include "export/append_number.hpp"
#include "export/chrome_json_writer.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

class export_chrome_json : public ExportRunTest {
 protected:
  void SetUp() override {
    ExportRunTest::SetUp();
    const auto file = dir_ / "trace.json";
    export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
      return std::make_unique<exports::ChromeJsonWriter>(file, names);
    });
    std::ifstream in(file);
    trace_ = json::parse(in);  // throws, failing the test, on anything but JSON
  }
  json trace_;
};

TEST_F(export_chrome_json, ProcessesAndThreadsAreNamedAndSlicesNestInTimeOrder) {
  EXPECT_EQ(trace_.at("displayTimeUnit"), "ns");
  std::map<std::pair<int, long>, std::string> thread_names;
  std::map<int, std::string> process_names;
  std::map<std::pair<int, long>, std::vector<std::string>> open;
  double last_ts = 0;
  int slices = 0;
  for (const json& e : trace_.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if (ph == "M") {
      if (e.at("name") == "process_name") process_names[e.at("pid")] = e.at("args").at("name");
      if (e.at("name") == "thread_name") thread_names[{e.at("pid"), e.at("tid")}] = e.at("args").at("name");
      continue;
    }
    const double ts = e.at("ts");
    EXPECT_GE(ts, last_ts) << "events in time order: " << e.dump();
    last_ts = ts;
    if (ph == "C") continue;
    const std::pair<int, long> thread{e.at("pid"), e.at("tid")};
    EXPECT_TRUE(thread_names.count(thread)) << "a thread named before its events: " << e.dump();
    if (ph == "B") open[thread].push_back(e.at("name")), ++slices;
    if (ph == "E") {
      ASSERT_FALSE(open[thread].empty()) << "an E with no B open on its thread: " << e.dump();
      open[thread].pop_back();
    }
  }
  for (const auto& [thread, names] : open) EXPECT_TRUE(names.empty()) << "slices left open on a thread";
  EXPECT_EQ(process_names,
            (std::map<int, std::string>{{0, "rank 0 (node, pid 1000)"}, {1, "rank 1 (node, pid 1001)"}}));
  EXPECT_EQ(thread_names.at({1, 0}), "thread 0");
  EXPECT_EQ(thread_names.at({0, 1'000'000 * 2 + 1}), "thread 1: phase") << "the user event's lane";
  // solve, step, an operation and the allreduce on each rank's thread 0; worker and phase on thread 1.
  EXPECT_EQ(slices, 12);
}

TEST_F(export_chrome_json, SlicesCarryTheirArgumentsAtCorrectedMicroseconds) {
  const json* receive = nullptr;
  const json* checkpoint = nullptr;
  for (const json& e : trace_.at("traceEvents")) {
    if (e.value("name", "") == "MPI_Recv" && e.at("ph") == "B") receive = &e;
    if (e.value("name", "") == "checkpoint" && e.at("pid") == 1) checkpoint = &e;
  }
  ASSERT_NE(receive, nullptr);
  EXPECT_DOUBLE_EQ(receive->at("ts").get<double>(), 13000.0) << "13 ms of rank 0's time, in µs";
  EXPECT_EQ(receive->at("cat"), "operation");
  EXPECT_EQ(receive->at("args"), json({{"bytes", 800},
                                       {"partner", 0},
                                       {"communicator", 100},
                                       {"tag", 7},
                                       {"duration_ns", 2000000},
                                       {"wait_ns", 1000000},
                                       {"source", "app.c:20"}}));
  ASSERT_NE(checkpoint, nullptr);
  EXPECT_EQ(checkpoint->at("ph"), "i");
  EXPECT_EQ(checkpoint->at("args").at("text"), "step \"1\", done") << "quotes escaped and read back";
}

TEST_F(export_chrome_json, TheFlowStartsAtTheSendAndEndsAfterIt) {
  const json* start = nullptr;
  const json* end = nullptr;
  for (const json& e : trace_.at("traceEvents")) {
    if (e.at("ph") == "s") start = &e;
    if (e.at("ph") == "f") end = &e;
  }
  ASSERT_NE(start, nullptr);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(start->at("id"), end->at("id"));
  EXPECT_EQ(start->at("pid"), 0);
  EXPECT_EQ(end->at("pid"), 1);
  EXPECT_EQ(end->at("bp"), "e") << "bound to the enclosing slice, the receive";
  EXPECT_DOUBLE_EQ(start->at("ts").get<double>(), 13000.0);
  EXPECT_DOUBLE_EQ(end->at("ts").get<double>(), 15000.0);
}

TEST_F(export_chrome_json, LostTimeIsACounterPerRank) {
  std::vector<std::string> counters;
  for (const json& e : trace_.at("traceEvents"))
    if (e.at("ph") == "C")
      counters.push_back(e.at("pid").dump() + "@" + e.at("ts").dump() + "=" + e.at("args").at("ns").dump());
  EXPECT_EQ(counters, (std::vector<std::string>{"1@15000.0=1000000", "0@19000.0=500000"}));
}

TEST(export_json_string, ControlCharactersAndBrokenUtf8StayValidJson) {
  std::string out;
  exports::append_json_string(out, std::string("a\"b\\c\n\x01 \xff ∑", 13));
  EXPECT_EQ(json::parse(out).get<std::string>(), "a\"b\\c\n\x01 \xef\xbf\xbd ∑");
}

// A counter's value from a damaged trace (lost time of 2e27 ns) is written as the number it is, not
// cast to an integer it does not fit (undefined behaviour, and a wrong figure).
TEST(export_quantity, WholeNumbersAreIntegersAndEveryOtherValueStaysItself) {
  const auto text = [](double value) {
    std::string out;
    exports::append_quantity(out, value);
    return out;
  };
  EXPECT_EQ(text(1'000'000), "1000000");
  EXPECT_EQ(text(-3), "-3");
  EXPECT_EQ(json::parse(text(0.5)).get<double>(), 0.5);
  EXPECT_EQ(json::parse(text(2.04964e27)).get<double>(), 2.04964e27);
  EXPECT_EQ(json::parse(text(-9.3e18)).get<double>(), -9.3e18);  // just beyond int64
  EXPECT_EQ(text(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(text(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(analysis::whole_number(9223372036854775807.0), std::nullopt);  // rounds to 2^63
  EXPECT_EQ(analysis::whole_number(-9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
}

}  // namespace
}  // namespace parperf::test
