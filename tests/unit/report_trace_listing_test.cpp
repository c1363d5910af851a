// The readable trace: one block per (rank, thread), one line per interval, operation and user event,
// nested two spaces per level, and the filters of `parperf trace`. The profiles are built by hand, so
// every expected line follows from the numbers below.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "format/profile.hpp"
#include "report/trace_listing.hpp"
#include "support/process.hpp"

namespace parperf::report {
namespace {

using parperf::test::lines_of;

using format::SiteKind;

constexpr std::uint64_t kMs = 1'000'000;

format::Site site(std::uint32_t id, SiteKind kind, std::string name, std::string file = "",
                  std::int64_t line = 0) {
  format::Site s;
  s.id = id;
  s.kind = static_cast<std::uint32_t>(kind);
  s.name = std::move(name);
  s.file = std::move(file);
  s.line = line;
  return s;
}

format::Node node(std::uint32_t parent, std::uint32_t site_id, std::uint64_t count, std::uint64_t sum_ms) {
  format::Node n;
  n.parent = parent;
  n.site = site_id;
  n.count = count;
  n.sum_ns = sum_ms * kMs;
  n.min_ns = n.max_ns = count ? n.sum_ns / count : 0;
  return n;
}

format::OperationStats operation(std::uint32_t site_id, std::uint64_t count, std::uint64_t sum_ms) {
  format::OperationStats op;
  op.site = site_id;
  op.count = count;
  op.sum_ns = sum_ms * kMs;
  op.min_ns = op.max_ns = op.sum_ns / count;
  return op;
}

// Rank 0 of an OpenMP program (the ids are the runtime's, so they need not be dense):
//   thread 0, the initial thread: program > solve (2 entries) > parallel region (4) > loop (4 entries,
//     4 chunks) with its implicit barrier; a critical in the region; the user event "halo" in solve.
//   thread 1, an OpenMP worker parked 120 ms: only the path to the region (context nodes) and the
//     region's loop, its entry still open when the profile was written.
format::Profile openmp_profile(std::int64_t rank = 0) {
  format::Profile p;
  p.process.rank = rank;
  p.sites = {site(1, SiteKind::program, "heat"),
             site(2, SiteKind::user, "solve", "solve.cpp", 10),
             site(3, SiteKind::omp_parallel, "parallel", "heat.c", 57),
             site(4, SiteKind::omp_loop, "loop", "heat.c", 58),
             site(5, SiteKind::omp_implicit_barrier, "implicit barrier", "heat.c", 58),
             site(6, SiteKind::omp_critical, "critical", "heat.c", 70),
             site(8, SiteKind::omp_join_barrier, "implicit barrier", "heat.c", 57)};
  p.sites[4].parent = 4;  // the loop's barrier
  p.sites[6].parent = 3;  // the region's join barrier
  p.events = {{9, "halo", "step %d"}};

  format::Thread initial;
  initial.index = 0;
  initial.kind = format::ThreadKind::initial;
  initial.start_ns = 0;
  initial.end_ns = 412 * kMs;
  format::Node program = node(format::kNoParent, 1, 0, 0);
  program.set_flag(format::kNodeOpen, true);
  program.open_ns = 412 * kMs;
  format::Node solve = node(0, 2, 2, 300);
  solve.min_ns = 140 * kMs;
  solve.max_ns = 160 * kMs;
  format::EventStats halo;
  halo.event = 9;
  halo.starts = halo.count = 5;
  halo.sum_ns = 50 * kMs;
  halo.min_ns = 8 * kMs;
  halo.max_ns = 12 * kMs;
  halo.first_description = "step 0";
  solve.events = {halo};
  format::Node region = node(1, 3, 4, 250);
  region.min_ns = 61 * kMs;
  region.max_ns = 64 * kMs;
  format::OperationStats critical = operation(6, 3, 6);
  critical.wait_ns = 2 * kMs;
  critical.wait_max_ns = 1 * kMs;
  format::OperationStats join = operation(8, 4, 8);
  join.wait_ns = 8 * kMs;
  join.wait_max_ns = 3 * kMs;
  region.operations = {critical, join};
  format::Node loop = node(2, 4, 4, 240);
  loop.iterations.count = 4;
  loop.iterations.sum_ns = 240 * kMs;
  loop.iterations.min_ns = 50 * kMs;
  loop.iterations.max_ns = 70 * kMs;
  format::OperationStats barrier = operation(5, 4, 10);
  barrier.min_ns = 1 * kMs;
  barrier.max_ns = 4 * kMs;
  barrier.sync_ns = 10 * kMs;
  barrier.sync_max_ns = 4 * kMs;
  loop.operations = {barrier};
  initial.nodes = {program, solve, region, loop};

  format::Thread worker;
  worker.index = 1;
  worker.kind = format::ThreadKind::openmp_worker;
  worker.start_ns = 12 * kMs;
  worker.end_ns = 412 * kMs;
  worker.parked_ns = 120 * kMs;
  format::Node worker_program = node(format::kNoParent, 1, 0, 0);
  worker_program.set_flag(format::kNodeContext, true);
  format::Node worker_solve = node(0, 2, 0, 0);
  worker_solve.set_flag(format::kNodeContext, true);
  format::Node worker_region = node(1, 3, 0, 0);
  worker_region.set_flag(format::kNodeContext, true);
  format::Node worker_loop = node(2, 4, 3, 180);
  worker_loop.set_flag(format::kNodeOpen, true);
  worker_loop.open_ns = 20 * kMs;
  worker.nodes = {worker_program, worker_solve, worker_region, worker_loop};

  p.threads = {initial, worker};
  return p;
}

testing::AssertionResult has_line(const std::string& text, const std::string& line) {
  for (const std::string& l : lines_of(text))
    if (l == line) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "the listing lacks the line\n  \"" << line << "\"\nit is:\n" << text;
}

testing::AssertionResult mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "the listing lacks \"" << part << "\":\n" << text;
}

TEST(trace_listing, EachThreadIsABlockNestedByIndentation) {
  const std::string text = render_trace_listing(openmp_profile());
  const std::string expected =
      "== rank 0 thread 0 (initial thread)  lifetime 0.412 s\n"
      "1 program begins 'heat'  total 0.412 s [open]\n"
      "  2 user interval begins 'solve' src=solve.cpp(10)  total 0.300 s  min 0.140 s  max 0.160 s  mean "
      "0.150 s\n"
      "    4 parallel region begins 'parallel' src=heat.c(57)  total 0.250 s  min 0.0610 s  max 0.0640 s  "
      "mean 0.0625 s\n"
      "      4 loop begins 'loop' src=heat.c(58)  total 0.240 s  min 0.0600 s  max 0.0600 s  mean 0.0600 s  "
      "chunks 4 (mean 0.0600 s, min 0.0500 s, max 0.0700 s)\n"
      "        4 implicit barrier of loop src=heat.c(58)  total 0.0100 s  min 0.00100 s  max 0.00400 s  "
      "mean 0.00250 s  wait 0 s  sync 0.0100 s (max 0.00400 s)\n"
      "      3 critical src=heat.c(70)  total 0.00600 s  min 0.00200 s  max 0.00200 s  mean 0.00200 s  "
      "wait 0.00200 s (max 0.00100 s)\n"
      "      4 implicit barrier of parallel region src=heat.c(57)  total 0.00800 s  min 0.00200 s  "
      "max 0.00200 s  mean 0.00200 s  wait 0.00800 s (max 0.00300 s)  sync 0 s\n"
      "    5 user event 'halo'  starts 5  ends 5  atomics 0  total 0.0500 s  min 0.00800 s  max 0.0120 s  "
      "mean 0.0100 s  first: \"step 0\"\n"
      "\n"
      "== rank 0 thread 1 (OpenMP worker)  lifetime 0.400 s  parked 0.120 s\n"
      "0 program begins 'heat' [context]\n"
      "  0 user interval begins 'solve' src=solve.cpp(10) [context]\n"
      "    0 parallel region begins 'parallel' src=heat.c(57) [context]\n"
      "      4 loop begins 'loop' src=heat.c(58)  total 0.200 s  min 0.0600 s  max 0.0600 s  mean 0.0600 s "
      "[open]\n";
  EXPECT_EQ(text, expected);
}

TEST(trace_listing, AnOpenEntryCountsAndItsTimeIsInTheTotal) {
  // The worker's loop: 3 completed entries of 60 ms and one open for 20 ms when the profile was written.
  const std::string text = render_trace_listing(openmp_profile());
  EXPECT_TRUE(mentions(text, "      4 loop begins 'loop' src=heat.c(58)  total 0.200 s"));
  EXPECT_TRUE(mentions(text, "mean 0.0600 s [open]\n")) << "the mean is over completed entries";
}

TEST(trace_listing, ThreadsAreSelectedByIndexOrByRankAndIndex) {
  const std::vector<format::Profile> run = {openmp_profile(0), openmp_profile(1)};
  auto headers = [&](const TraceFilter& filter) {
    std::vector<std::string> found;
    for (const std::string& line : lines_of(render_trace_listing(run, filter)))
      if (line.rfind("== ", 0) == 0) found.push_back(line.substr(0, line.find(" (")));
    return found;
  };
  using Headers = std::vector<std::string>;
  EXPECT_EQ(headers({}), (Headers{"== rank 0 thread 0", "== rank 0 thread 1", "== rank 1 thread 0",
                                  "== rank 1 thread 1"}));

  TraceFilter thread1;
  thread1.threads = parse_thread_list("1");
  EXPECT_EQ(headers(thread1), (Headers{"== rank 0 thread 1", "== rank 1 thread 1"}))
      << "thread 1 of every rank";

  TraceFilter rank1_thread0;
  rank1_thread0.threads = parse_thread_list("1:0");
  EXPECT_EQ(headers(rank1_thread0), (Headers{"== rank 1 thread 0"}));

  TraceFilter list;
  list.threads = parse_thread_list("0:1, 1:0");
  EXPECT_EQ(headers(list), (Headers{"== rank 0 thread 1", "== rank 1 thread 0"}));

  TraceFilter rank;
  rank.ranks = parse_rank_list("1");
  EXPECT_EQ(headers(rank), (Headers{"== rank 1 thread 0", "== rank 1 thread 1"}));

  TraceFilter nothing;
  nothing.threads = parse_thread_list("7");
  EXPECT_EQ(render_trace_listing(run, nothing), "") << "no thread 7: nothing to list";
}

TEST(trace_listing, ThreadsAreListedInTheOrderTheyRegistered) {
  format::Profile p = openmp_profile();
  std::swap(p.threads[0], p.threads[1]);  // the runtime may write a thread that ended first
  const std::string text = render_trace_listing(p);
  EXPECT_LT(text.find("== rank 0 thread 0 "), text.find("== rank 0 thread 1 ")) << text;
}

TEST(trace_listing, BadThreadAndRankListsAreRefusedWithTheOptionNamed) {
  EXPECT_THROW(parse_thread_list("x"), std::invalid_argument);
  EXPECT_THROW(parse_thread_list("1:"), std::invalid_argument);
  EXPECT_THROW(parse_thread_list("-1"), std::invalid_argument);
  EXPECT_THROW(parse_rank_list("0,a"), std::invalid_argument);
  try {
    parse_thread_list("1,two");
    FAIL() << "'two' is not a thread";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--thread: 'two' is not a thread number or RANK:THREAD");
  }
  const auto selectors = parse_thread_list("3,2:5");
  ASSERT_EQ(selectors.size(), 2u);
  EXPECT_FALSE(selectors[0].rank.has_value());
  EXPECT_EQ(selectors[0].thread, 3u);
  EXPECT_EQ(selectors[1].rank, 2);
  EXPECT_EQ(selectors[1].thread, 5u);
}

TEST(trace_listing, EventsAreChosenByNameOrKindWords) {
  const format::Profile profile = openmp_profile();
  TraceFilter only_critical;
  only_critical.events = {"critical"};
  std::string text = render_trace_listing(profile, only_critical);
  EXPECT_TRUE(mentions(text, "3 critical src=heat.c(70)"));
  EXPECT_FALSE(mentions(text, "implicit barrier"));
  EXPECT_FALSE(mentions(text, "user event"));
  EXPECT_TRUE(mentions(text, "4 loop begins")) << "--events chooses events, never intervals";

  TraceFilter barriers;  // both implicit barriers (the loop's and the region's join barrier), by kind
  barriers.events = {"Implicit_Barrier"};
  text = render_trace_listing(profile, barriers);
  EXPECT_TRUE(mentions(text, "implicit barrier of loop"));
  EXPECT_TRUE(mentions(text, "implicit barrier of parallel region"));
  EXPECT_FALSE(mentions(text, "critical"));

  TraceFilter by_name;
  by_name.events = {"ha*"};
  text = render_trace_listing(profile, by_name);
  EXPECT_TRUE(mentions(text, "5 user event 'halo'"));
  EXPECT_FALSE(mentions(text, "critical"));

  TraceFilter user_events;
  user_events.events = {"user event"};
  text = render_trace_listing(profile, user_events);
  EXPECT_TRUE(mentions(text, "user event 'halo'"));
  EXPECT_FALSE(mentions(text, "barrier"));

  TraceFilter no_barriers;
  no_barriers.no_events = {"*barrier*"};
  text = render_trace_listing(profile, no_barriers);
  EXPECT_FALSE(mentions(text, "barrier"));
  EXPECT_TRUE(mentions(text, "critical"));
  EXPECT_TRUE(mentions(text, "user event 'halo'"));

  TraceFilter none;
  none.events = {"none"};
  text = render_trace_listing(profile, none);
  EXPECT_FALSE(mentions(text, "critical"));
  EXPECT_FALSE(mentions(text, "barrier"));
  EXPECT_FALSE(mentions(text, "user event"));
  EXPECT_TRUE(mentions(text, "4 parallel region begins"));
}

TEST(trace_listing, AHiddenIntervalLeavesItsContentOneLevelUp) {
  const format::Profile profile = openmp_profile();
  TraceFilter no_solve;
  no_solve.no_intervals = {"solve"};
  no_solve.threads = parse_thread_list("0");
  std::string text = render_trace_listing(profile, no_solve);
  EXPECT_FALSE(mentions(text, "'solve'"));
  EXPECT_TRUE(has_line(text, "1 program begins 'heat'  total 0.412 s [open]"));
  EXPECT_TRUE(mentions(text, "\n  4 parallel region begins 'parallel'")) << "the region moves up to level 1";
  EXPECT_TRUE(mentions(text, "\n    4 loop begins 'loop'"));
  EXPECT_TRUE(mentions(text, "\n  5 user event 'halo'")) << "solve's event moves up with it";

  TraceFilter regions_only;  // by kind word: only the parallel regions, their content re-parented
  regions_only.intervals = {"parallel region"};
  regions_only.threads = parse_thread_list("0");
  text = render_trace_listing(profile, regions_only);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 6u) << text;
  EXPECT_EQ(lines[1].rfind("4 parallel region begins 'parallel'", 0), 0u) << text;
  EXPECT_EQ(lines[2].rfind("  4 implicit barrier of loop", 0), 0u) << "the loop's barrier, loop hidden\n"
                                                                   << text;
  EXPECT_EQ(lines[3].rfind("  3 critical", 0), 0u) << text;
  EXPECT_EQ(lines[4].rfind("  4 implicit barrier of parallel region", 0), 0u) << text;
  EXPECT_EQ(lines[5].rfind("5 user event 'halo'", 0), 0u) << text;

  TraceFilter by_key;  // the enum's key names the kind too
  by_key.intervals = {"omp_loop", "user"};
  by_key.events = {"none"};
  by_key.threads = parse_thread_list("0");
  text = render_trace_listing(profile, by_key);
  EXPECT_EQ(
      text,
      "== rank 0 thread 0 (initial thread)  lifetime 0.412 s\n"
      "2 user interval begins 'solve' src=solve.cpp(10)  total 0.300 s  min 0.140 s  max 0.160 s  "
      "mean 0.150 s\n"
      "  4 loop begins 'loop' src=heat.c(58)  total 0.240 s  min 0.0600 s  max 0.0600 s  mean 0.0600 s  "
      "chunks 4 (mean 0.0600 s, min 0.0500 s, max 0.0700 s)\n");
}

TEST(trace_listing, UserIntervalsShowTheirValueAndIterations) {
  format::Profile p;
  p.sites = {site(1, SiteKind::program, "app"), site(2, SiteKind::sequential_loop, "sweep", "app.cpp", 12),
             site(3, SiteKind::user, "level", "app.cpp", 15)};
  format::Thread t;
  t.end_ns = 130 * kMs;
  format::Node sweep = node(0, 2, 1, 120);
  sweep.iterations.count = 6;
  sweep.iterations.sum_ns = 120 * kMs;
  sweep.iterations.min_ns = 10 * kMs;
  sweep.iterations.max_ns = 30 * kMs;
  format::Node level = node(1, 3, 2, 60);
  level.value = 2;
  t.nodes = {node(format::kNoParent, 1, 1, 130), sweep, level};
  p.threads = {t};
  const std::string text = render_trace_listing(p);
  EXPECT_TRUE(has_line(text, "== rank 0 thread 0 (thread)  lifetime 0.130 s"));
  EXPECT_TRUE(has_line(text, "1 program begins 'app'  total 0.130 s"));
  EXPECT_TRUE(has_line(text,
                       "  1 sequential loop begins 'sweep' src=app.cpp(12)  total 0.120 s  iterations 6 "
                       "(mean 0.0200 s, min 0.0100 s, max 0.0300 s)"));
  EXPECT_TRUE(
      has_line(text,
               "    2 user interval begins 'level' value 2 src=app.cpp(15)  total 0.0600 s  min 0.0300 s  "
               "max 0.0300 s  mean 0.0300 s"));
}

TEST(trace_listing, TheDefaultDescriberNamesUnsymbolizedCodeByModuleAndAddress) {
  format::Site region = site(3, SiteKind::omp_parallel, "parallel");
  region.module = "/opt/app/bin/heat";
  region.address = 0x1a2b;
  SiteText text = describe_site(region, nullptr);
  EXPECT_EQ(text.kind_name, "parallel region");
  EXPECT_EQ(text.name, "parallel");
  EXPECT_EQ(text.file, "heat+0x1a2b");
  EXPECT_EQ(text.line1, 0);

  format::Site loop = site(4, SiteKind::omp_loop, "loop", "heat.c", 58);
  format::Site barrier = site(5, SiteKind::omp_implicit_barrier, "implicit barrier", "heat.c", 58);
  text = describe_site(barrier, &loop);
  EXPECT_EQ(text.kind_name, "implicit barrier of loop");
  EXPECT_EQ(text.name, "") << "the collector's name only repeats the kind";
  EXPECT_EQ(text.file, "heat.c");
  EXPECT_EQ(text.line1, 58);

  EXPECT_EQ(describe_site(site(6, SiteKind::omp_join_barrier, "implicit barrier"), nullptr).kind_name,
            "implicit barrier of parallel region");
  EXPECT_EQ(describe_site(site(7, SiteKind::omp_lock, "lock"), nullptr).name, "");
  EXPECT_EQ(describe_site(site(8, SiteKind::user, "solve"), nullptr).kind_name, "user interval");
  EXPECT_EQ(site_kind_words(static_cast<std::uint32_t>(SiteKind::omp_nest_lock)), "nested lock");
}

TEST(trace_listing, ADescriberCanBePluggedIn) {
  // What a symbolizing describer does: a source range for the region, the construct's line for its
  // barrier.
  SiteDescriber symbolized = [](const format::Site& s, const format::Site* construct) {
    SiteText text = describe_site(s, construct);
    text.file = "heat.c";
    text.line1 = construct ? 61 : 57;
    text.line2 = construct ? 0 : 63;
    return text;
  };
  format::Profile p = openmp_profile();
  p.threads.resize(1);
  const std::string text = render_trace_listing(p, {}, symbolized);
  EXPECT_TRUE(mentions(text, "\n    4 parallel region begins 'parallel' src=heat.c(57:63)  total 0.250 s"));
  EXPECT_TRUE(mentions(text, "\n        4 implicit barrier of loop src=heat.c(61)  total"));
}

TEST(trace_listing, DamagedNamesAndUnknownIdsNeverBreakALine) {
  format::Profile p;
  p.sites = {site(1, SiteKind::program, "app"), site(2, SiteKind::user, "two\nlines", "a\tb.c", 3)};
  p.events = {{1, "ev\x01", "x"}};
  format::Thread t;
  format::Node root = node(format::kNoParent, 1, 1, 10);
  format::Node odd = node(0, 2, 1, 5);
  format::EventStats ev;
  ev.event = 1;
  ev.atomics = 2;
  ev.first_description = "line\nbreak";
  format::EventStats unknown_event;
  unknown_event.event = 42;
  odd.events = {ev, unknown_event};
  odd.operations = {operation(77, 1, 1)};
  format::Node unknown_site = node(0, 99, 1, 1);
  t.nodes = {root, odd, unknown_site};
  p.threads = {t};
  const std::string text = render_trace_listing(p);
  EXPECT_EQ(lines_of(text).size(), 7u) << text;
  EXPECT_TRUE(has_line(text, "  1 user interval begins 'two\\nlines' src=a\\tb.c(3)  total 0.00500 s"));
  EXPECT_TRUE(mentions(
      text, "    2 user event 'ev\\x01'  starts 0  ends 0  atomics 2  total 0 s  first: \"line\\nbreak\""));
  EXPECT_TRUE(mentions(text, "user event '<unknown event 42>'"));
  EXPECT_TRUE(mentions(text, "    1 unknown site '<unknown site 77>'"));
  EXPECT_TRUE(mentions(text, "  1 unknown site begins '<unknown site 99>'"));
}

}  // namespace
}  // namespace parperf::report
