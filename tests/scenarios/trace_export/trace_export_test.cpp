// `parperf export` on a real event trace (event_trace_program: two threads of 200 steps, each step
// an interval "step" holding the user event "halo" and the loop "sweep" of 50 iteration marks; the
// main thread also enters "noise" 100 times, and "hidden" 30 times with recording off). Every
// format holds every interval once, nested, with nothing of "hidden".
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_run.hpp"
#include "format/site_kinds.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "unit/protobuf_test_reader.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

constexpr int kSteps = 200;
constexpr int kNoise = 100;
constexpr int kIntervals = 2 * kSteps * 2 + kNoise;  // step and sweep on both threads, noise on one
constexpr int kHalos = 2 * kSteps;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class TraceExport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = std::make_unique<TempDir>();
    const auto run = run_process({parperf_command().string(), "run", "-q", "-o", (*tmp_ / "run").string(),
                                  "--trace", "--", PARPERF_PROGRAM_EVENT_TRACE_PROGRAM});
    const auto exported =
        run_process({parperf_command().string(), "export", (*tmp_ / "run").string(), "--perfetto",
                     (*tmp_ / "t.pftrace").string(), "--chrome-json", (*tmp_ / "t.json").string(), "--otf2",
                     (*tmp_ / "otf2").string(), "--csv", (*tmp_ / "t.csv").string()});
    ok_ = run.exit_code == 0 && exported.exit_code == 0 && exported.err.empty();
    if (!ok_) std::fprintf(stderr, "%s\n%s\n", describe(run).c_str(), describe(exported).c_str());
  }
  static void TearDownTestSuite() { tmp_.reset(); }
  void SetUp() override { ASSERT_TRUE(ok_) << "see the failure of parperf run or export above"; }

  static std::unique_ptr<TempDir> tmp_;
  static bool ok_;
};
std::unique_ptr<TempDir> TraceExport::tmp_;
bool TraceExport::ok_ = false;

TEST_F(TraceExport, TheCsvHasOneRowPerRecordedEvent) {
  const analysis::RunData run = analysis::load_run(*tmp_ / "run");
  const analysis::TraceRun traces = analysis::load_traces(run);
  std::uint64_t events = 0;
  for (const analysis::RankTrace& rank : traces.ranks)
    for (const format::TraceBlock& block : rank.trace->blocks) events += block.header.event_count;
  EXPECT_EQ(lines_of(read_file(*tmp_ / "t.csv")).size(), 1 + events);
}

TEST_F(TraceExport, OtfPrintReadsEveryIntervalAsOneEnterAndOneLeave) {
  const auto printed = run_process({PARPERF_OTF2_PRINT, (*tmp_ / "otf2" / "traces.otf2").string()});
  ASSERT_EQ(printed.exit_code, 0) << describe(printed);
  std::map<std::string, int> records;
  // Per location (thread), the region of its first Enter and of its last Leave: the program's.
  std::map<std::string, std::pair<std::string, std::string>> outermost;
  for (const std::string& line : lines_of(printed.out)) {
    std::istringstream fields(line);
    std::string record, location;
    fields >> record >> location;
    ++records[record];
    const std::size_t region = line.find("Region: ");
    if (region == std::string::npos) continue;
    auto [at, added] = outermost.try_emplace(location);
    if (record == "ENTER" && at->second.first.empty()) at->second.first = line.substr(region);
    if (record == "LEAVE") at->second.second = line.substr(region);
  }
  ASSERT_EQ(outermost.size(), 2u) << "the two threads, each a location:\n" << printed.out.substr(0, 2000);
  // The program's site, as the profile names it: the region every location begins and ends in.
  const analysis::RunData run = analysis::load_run(*tmp_ / "run");
  ASSERT_FALSE(run.profiles.empty());
  std::string program;
  for (const format::Site& site : run.profiles[0].sites)
    if (site.kind == static_cast<std::uint32_t>(format::SiteKind::program)) program = site.name;
  ASSERT_FALSE(program.empty()) << "the profile has no program site";
  for (const auto& [location, regions] : outermost) {
    EXPECT_EQ(regions.first.rfind("Region: \"" + program + "\"", 0), 0u)
        << "location " << location << " begins in " << regions.first << ", not the program's region";
    EXPECT_EQ(regions.second, regions.first)
        << "location " << location << " ends outside the program's region";
  }
  EXPECT_EQ(records["ENTER"], kIntervals + 2) << "every interval, and the program on each thread";
  EXPECT_EQ(records["LEAVE"], kIntervals + 2);
  EXPECT_EQ(printed.out.find("\"hidden\""), std::string::npos) << "recorded while recording was off";
}

TEST_F(TraceExport, ChromeJsonSlicesNestOnEveryThread) {
  const nlohmann::json trace = nlohmann::json::parse(read_file(*tmp_ / "t.json"));
  std::map<std::pair<long, long>, std::vector<std::string>> open;
  std::map<std::string, int> begun;
  double last = 0;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") == "M") continue;
    EXPECT_GE(e.at("ts").get<double>(), last);
    last = e.at("ts");
    const std::pair<long, long> thread{e.value("pid", 0L), e.value("tid", 0L)};
    if (e.at("ph") == "B") open[thread].push_back(e.at("name")), ++begun[e.at("name")];
    if (e.at("ph") == "E") {
      ASSERT_FALSE(open[thread].empty()) << e.dump();
      open[thread].pop_back();
    }
  }
  EXPECT_EQ(begun["step"], 2 * kSteps);
  EXPECT_EQ(begun["sweep"], 2 * kSteps);
  EXPECT_EQ(begun["noise"], kNoise);
  EXPECT_EQ(begun["halo"], kHalos);
  EXPECT_EQ(begun.count("hidden"), 0u);
}

TEST_F(TraceExport, PerfettoHasEverySliceBeginAndEndAndProtocReadsIt) {
  int begins = 0, ends = 0;
  const std::string file = read_file(*tmp_ / "t.pftrace");  // the fields are views into it
  for (const ProtoField& packet : read_proto(file)) {
    const std::vector<ProtoField> fields = read_proto(packet.bytes);
    const ProtoField* event = find_field(fields, 11);  // track_event
    if (!event) continue;
    const std::vector<ProtoField> event_fields = read_proto(event->bytes);
    const ProtoField* type = find_field(event_fields, 9);
    begins += type && type->value == 1;  // TYPE_SLICE_BEGIN
    ends += type && type->value == 2;    // TYPE_SLICE_END
  }
  EXPECT_EQ(begins, kIntervals + kHalos);
  EXPECT_EQ(ends, begins);
  const std::string decode =
      std::string(PARPERF_PROTOC) + " --decode_raw < " + (*tmp_ / "t.pftrace").string() + " > /dev/null";
  EXPECT_EQ(std::system(decode.c_str()), 0);
}

}  // namespace
}  // namespace parperf::test
