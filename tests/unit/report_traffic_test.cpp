// The one-sided traffic matrix (analysis/one_sided_traffic.hpp) and its text and JSON
// (report/traffic_report.hpp): each process's row from its own profile, and a row the collector
// could not keep said to be unknown rather than shown empty.
#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <vector>

#include "analysis/one_sided_traffic.hpp"
#include "report/table_rows.hpp"
#include "report/traffic_report.hpp"

namespace parperf::report {
namespace {

format::Profile pe_profile(std::int64_t pe, std::vector<format::ShmemTrafficRecord> rows, bool lost = false) {
  format::Profile p;
  p.has_shmem = true;
  p.shmem.pe = pe;
  p.shmem.pe_count = 3;
  p.shmem.traffic_count = static_cast<std::uint32_t>(rows.size());
  p.shmem.traffic_lost = lost ? 1 : 0;
  p.shmem.traffic = std::move(rows);
  return p;
}

TEST(report_traffic, EachProcessRowIsItsOwnAndALostRowIsSaidToBeUnknown) {
  format::ShmemTrafficRecord put;
  put.target = 1;
  put.operation = format::OneSidedOperation::put;
  put.calls = 10;
  put.bytes = 40000;
  const std::vector<format::Profile> profiles = {pe_profile(0, {put}), pe_profile(2, {}, true)};
  const analysis::OneSidedTraffic traffic = analysis::one_sided_traffic(profiles);
  ASSERT_EQ(traffic.cells.size(), 1u);
  EXPECT_EQ(traffic.cells[0].origin, 0);
  EXPECT_EQ(traffic.cells[0].bytes, 40000u);
  EXPECT_EQ(traffic.lost_origins, std::vector<std::int64_t>{2});

  std::string text;
  render_traffic(std::back_inserter(text), traffic, TableRows{}.other_tables);
  EXPECT_NE(text.find("process 2: its row is unknown"), std::string::npos) << text;
  const nlohmann::ordered_json json = traffic_json(traffic);
  EXPECT_EQ(json["lost_origins"], nlohmann::ordered_json::array({2}));
  EXPECT_EQ(json["cells"].size(), 1u);
}

TEST(report_traffic, ARunWithNoTrafficHasNoMatrix) {
  const analysis::OneSidedTraffic traffic = analysis::one_sided_traffic({pe_profile(0, {})});
  std::string text;
  render_traffic(std::back_inserter(text), traffic, TableRows{}.other_tables);
  EXPECT_EQ(text, "");
  EXPECT_TRUE(traffic_json(traffic).is_null());
}

}  // namespace
}  // namespace parperf::report
