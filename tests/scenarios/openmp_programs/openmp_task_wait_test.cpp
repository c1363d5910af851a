// A taskwait waiting for a child task that another thread runs (task_wait.c, built with clang and gcc)
// under `parperf run --trace`: the trace links the child to its creation and to the taskwait, so the
// critical path goes through the child and `parperf whatif --scale child=2` gains half of it.
//
// Expected values come from the program's own measurements ("child C s of region R s"): the path
// runs from the region's start through the child's C seconds to the region's end, so the child's share
// of the path is C / R within 0.05 (the part of the run outside the region, a few ms of start-up and
// shut-down traced around it against 200 ms); halving the child gains C / 2 in the replay, exactly by
// the model (every other cost stays), within 5 % of it and 2 ms for the costs the replay rebuilds
// around the waits; and against the measured time within 3 % of the run more (the replay's self-check).
//
// The gcc build runs on libomp, which `parperf run` substitutes for libgomp (libgomp has no OMPT and
// gives no task events at all): should the run not be substituted, the test skips, saying so.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "compiler_names.hpp"
#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

constexpr int kChildMs = 200;

class TaskWait : public testing::TestWithParam<const char*> {};

TEST_P(TaskWait, TheCriticalPathGoesThroughTheChildTheTaskwaitWaitedForAndHalvingItGainsHalfOfIt) {
  TempDir tmp;
  const ProcessResult result =
      run_process({parperf_command().string(), "run", "-q", "--trace", "-o", (tmp / "run").string(), "--",
                   GetParam(), std::to_string(kChildMs)});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(result.err, m, std::regex(R"(child ([0-9.]+) s of region ([0-9.]+) s)")))
      << describe(result);
  const double child = std::stod(m[1]), region = std::stod(m[2]);
  const json report = report_json(tmp / "run");
  const json& run = field(report, "run");
  const json& linked = field(field(report, "dependencies"), "linked");
  // Only LLVM's libomp reports tasks (OMPT); a gcc build not switched to it runs on libgomp unmeasured.
  const std::string runtime = run.value("openmp_runtime", "");
  if (integer(linked, "task_creations") == 0 && runtime.find("LLVM") == std::string::npos)
    GTEST_SKIP() << "the program ran on "
                 << (runtime.empty() ? "an OpenMP runtime without OMPT (GNU libgomp, not substituted)"
                                     : runtime)
                 << ", which reports no task events: nothing to link";
  EXPECT_EQ(integer(linked, "task_creations"), 2)
      << "two tasks created and run: each begins after its creation: " << linked.dump();
  EXPECT_EQ(integer(linked, "task_waits"), 2)
      << "the taskwait waits for both children of the single's thread: " << linked.dump();
  EXPECT_EQ(integer(field(field(report, "dependencies"), "unlinked"), "task_pieces"), 0);

  const json& intervals = field(field(report, "critical_path"), "intervals");
  double share = 0;
  for (const json& i : intervals)
    if (i.value("name", "") == "child") share = number(i, "share");
  EXPECT_NEAR(share, child / region, 0.05)
      << "the child worked " << child << " s of the region's " << region
      << " s while the taskwait waited for it, yet its share of the critical path is " << share << ": "
      << intervals.dump();

  const json w = whatif_json(tmp / "run", {"--scale", "child=2"});
  const double replayed = number(w, "replayed_time"), predicted = number(w, "predicted_time");
  EXPECT_NEAR(replayed - predicted, child / 2, 0.05 * child / 2 + 0.002)
      << "the taskwait waits for the child: running it twice as fast should gain half its " << child
      << " s: " << w.dump();
  EXPECT_NEAR(number(w, "gain"), child / 2, 0.05 * child / 2 + 0.002 + 0.03 * number(w, "measured_time"))
      << w.dump();
}

INSTANTIATE_TEST_SUITE_P(Compilers, TaskWait,
                         testing::Values(PARPERF_PROGRAM_TASK_WAIT_CLANG, PARPERF_PROGRAM_TASK_WAIT_GCC),
                         clang_or_gcc);

}  // namespace
}  // namespace parperf::test
