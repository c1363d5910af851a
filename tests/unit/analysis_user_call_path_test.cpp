// Sampled call paths as the user reads them (src/analysis/user_call_path.*): the measured libraries'
// internals folded into the program's call, parperf's own frames never between the program's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/user_call_path.hpp"

namespace parperf::analysis {
namespace {

constexpr std::uint32_t kProgram = 0, kWrappers = 1, kMpi = 2, kRuntime = 3;

format::CallPaths modules() {
  format::CallPaths paths;
  for (const char* path : {"/home/u/solver", "/opt/parperf/lib/libparperf-mpi.so",
                           "/usr/lib/x86_64-linux-gnu/libmpi.so.40", "/opt/parperf/lib/libparperf.so"}) {
    format::CallPathModule m;
    m.id = static_cast<std::uint32_t>(paths.modules.size());
    m.path = path;
    paths.modules.push_back(m);
  }
  return paths;
}

// One path, outermost first, of (module, address): a chain of nodes each the parent of the next.
format::CallPathThread chain(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& frames) {
  format::CallPathThread thread;
  for (const auto& [module, address] : frames) {
    format::CallPathNode node;
    node.parent =
        thread.nodes.empty() ? format::kNoParent : static_cast<std::uint32_t>(thread.nodes.size() - 1);
    node.module = module;
    node.address = address;
    node.frame = 1;
    thread.nodes.push_back(node);
  }
  thread.nodes.back().frame = 0;
  return thread;
}

std::vector<std::uint64_t> addresses(const format::CallPathThread& thread,
                                     const std::vector<std::uint32_t>& nodes) {
  std::vector<std::uint64_t> out;
  for (const std::uint32_t n : nodes) out.push_back(thread.nodes[n].address);
  return out;
}

TEST(UserCallPath, AWaitInsideMpiIsTheProgramsMpiCall) {
  const format::CallPaths paths = modules();
  // main > solve > MPI_Recv (the collector's wrapper) > PMPI_Recv > ompi_request_wait > sched_yield
  const auto thread = chain(
      {{kProgram, 0x10}, {kProgram, 0x20}, {kWrappers, 0x30}, {kMpi, 0x40}, {kMpi, 0x50}, {kProgram, 0x60}});
  const auto leaf = static_cast<std::uint32_t>(thread.nodes.size() - 1);
  EXPECT_EQ(addresses(thread, user_call_path(paths, thread, leaf, false)),
            (std::vector<std::uint64_t>{0x10, 0x20, 0x30}))
      << "the path ends at the call the program made (MPI_Recv), its internals folded into it";
  EXPECT_EQ(addresses(thread, user_call_path(paths, thread, leaf, true)),
            (std::vector<std::uint64_t>{0x10, 0x20, 0x30, 0x40, 0x50, 0x60}))
      << "with --internals the library's own functions stay below the call";
}

TEST(UserCallPath, ParperfsFramesNeverStandBetweenTheProgramsOwn) {
  const format::CallPaths paths = modules();
  // start_thread > parperf's thread trampoline > worker > compute
  const auto thread = chain({{kProgram, 0x10}, {kRuntime, 0x20}, {kProgram, 0x30}, {kProgram, 0x40}});
  EXPECT_EQ(addresses(thread, user_call_path(paths, thread, 3, false)),
            (std::vector<std::uint64_t>{0x10, 0x30, 0x40}));
}

TEST(UserCallPath, AKeptWholeWaitEndsAtTheFunctionTheProgramCalled) {
  const format::CallPaths paths = modules();
  // main > nap > nanosleep (parperf's, which keeps the wait whole) > parperf's internals
  const auto thread = chain({{kProgram, 0x10}, {kProgram, 0x20}, {kRuntime, 0x30}, {kRuntime, 0x40}});
  EXPECT_EQ(addresses(thread, user_call_path(paths, thread, 3, false)),
            (std::vector<std::uint64_t>{0x10, 0x20, 0x30}))
      << "the first of parperf's frames is the function the program called; the rest are parperf's";
  const auto unknown = chain({{format::kNoParent, 0x10}, {kProgram, 0x20}});
  EXPECT_EQ(addresses(unknown, user_call_path(paths, unknown, 1, false)),
            (std::vector<std::uint64_t>{0x10, 0x20}))
      << "a frame in no module is the program's";
}

TEST(UserCallPath, ADamagedTreeEndsThePathWhereItBreaks) {
  const format::CallPaths paths = modules();
  auto thread = chain({{kProgram, 0x10}, {kProgram, 0x20}, {kProgram, 0x30}});
  thread.nodes[1].parent = 2;  // a parent after its child: a loop
  const auto path = user_call_path(paths, thread, 2, false);
  EXPECT_LE(path.size(), 3u);
  EXPECT_EQ(path.back(), 2u);
}

}  // namespace
}  // namespace parperf::analysis
