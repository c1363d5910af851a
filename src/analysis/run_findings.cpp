// The run's main findings (findings.hpp: main_findings): start-up, the SRC points, the loops, the
// serial part with its Amdahl bound, MPI set-up calls.
#include <algorithm>
#include <utility>

#include "analysis/finding_thresholds.hpp"
#include "analysis/findings.hpp"
#include "analysis/mpi_classes.hpp"
#include "analysis/src_point_findings.hpp"
#include "format/records.hpp"

namespace parperf::analysis {
namespace {

// At most this many SRC points (and as many unbalanced loops), each losing at least this share of the
// thread time.
constexpr std::size_t kMostPoints = 3;
constexpr double kWorthSaying = kSignificantLoss;
// The serial sections a finding names: at most this many, each at least this share of the longest.
constexpr std::size_t kMostSections = 3;
constexpr double kSectionWorthNaming = 0.1;

bool is_parallel_region(const IntervalIdentity& id) {
  return id.kind == static_cast<std::uint32_t>(format::SiteKind::omp_parallel);
}

// MPI_Init (shmem_init) whose time, taken out of every interval (mpi_attribution.hpp), is a large
// share of the run: the figures then describe a short run's start-up more than its work.
std::optional<Finding> startup_finding(const Characteristics& program, const std::vector<SrcPoint>& points) {
  const double whole = program.startup + program.total_time;
  if (program.startup <= 0 || program.startup < kStartupWorthSaying * whole) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::startup;
  finding.share = program.startup / whole;
  // Not recoverable by the program: a longer run amortizes it. The gain bounds what it distorts.
  finding.estimated_gain = program.startup;
  const SrcPoint* call = nullptr;
  for (const SrcPoint& p : points)
    if (is_startup_call(p.identity.name) && (!call || p.total > call->total)) call = &p;
  if (call) finding.startup_call = call->identity;
  finding.evidence = {{"startup", program.startup},
                      {"shutdown", program.shutdown},
                      {"total_time", program.total_time},
                      {"startup_share", finding.share}};
  return finding;
}

// Communicator, group and window creation: management calls, productive Sys time (docs/mpi.md), yet
// set-up rather than the program's work, and collective: the ranks wait for one another inside.
std::optional<Finding> setup_finding(const Characteristics& program, const std::vector<SrcPoint>& points) {
  double setup = 0;
  std::uint64_t calls = 0;
  const SrcPoint* largest = nullptr;
  for (const SrcPoint& p : points) {
    const std::optional<MpiClass> cls = mpi_class(p.identity.kind);
    if (cls != MpiClass::management || is_startup_call(p.identity.name) || is_shutdown_call(p.identity.name))
      continue;
    setup += p.total;
    calls += p.count;
    if (!largest || p.total > largest->total) largest = &p;
  }
  if (!largest || setup < kSetupWorthSaying * program.total_time) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::mpi_setup;
  finding.src_point = *largest;
  finding.share = setup / program.total_time;
  finding.estimated_gain = setup;
  finding.evidence = {{"setup_time", setup},
                      {"calls", static_cast<double>(calls)},
                      {"share", finding.share},
                      {"productive_sys", program.productive_sys}};
  return finding;
}

// The program's insufficient parallelism. With n processors each of them a thread, a serial part
// that takes S seconds leaves the n − 1 others waiting (or repeating it): IP = (n − 1) · S, so
// S = IP / (n − 1); the work W is the productive time (the serial part counted once), and Amdahl's
// law bounds the speedup at any count by 1 / f with f = S / W. Without that reading of IP (processes
// as processors, whose threads' IP is averaged) the finding gives the share alone.
std::optional<Finding> sequential_finding(const Characteristics& program,
                                          const std::vector<SerialSection>& sections) {
  const double share = program.insufficient_parallelism / program.total_time;
  if (share < kWorthSaying) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::sequential_code;
  finding.share = share;
  finding.estimated_gain = program.insufficient_parallelism;
  finding.serial_sections = sections;
  finding.evidence = {{"insufficient_parallelism", program.insufficient_parallelism}, {"share", share}};
  const bool threads_are_processors = program.threads == program.processors;
  if (!threads_are_processors || program.processors < 2 || program.productive_time <= 0) return finding;
  const double serial = program.insufficient_parallelism / static_cast<double>(program.processors - 1);
  const double fraction = serial / program.productive_time;
  if (fraction <= 0 || fraction >= 1) return finding;
  finding.kind = FindingKind::amdahl_limit;
  finding.evidence.push_back({"serial_time", serial});
  finding.evidence.push_back({"work", program.productive_time});
  finding.evidence.push_back({"serial_fraction", fraction});
  finding.evidence.push_back({"speedup_limit", 1 / fraction});
  finding.evidence.push_back({"processors", static_cast<double>(program.processors)});
  return finding;
}

}  // namespace

std::vector<SerialSection> serial_sections(const IntervalTree& tree,
                                           const std::vector<Characteristics>& characteristics) {
  if (tree.intervals.empty() || characteristics.size() != tree.intervals.size() ||
      characteristics[0].processors < 2)
    return {};
  // Intervals inside a parallel region, or around one, are not serial sections.
  std::vector<bool> in_region(tree.intervals.size(), false), holds_region(tree.intervals.size(), false);
  for (std::size_t i = 1; i < tree.intervals.size(); ++i) {
    const std::size_t parent = tree.intervals[i].parent;
    in_region[i] = in_region[parent] || is_parallel_region(tree.intervals[parent].identity);
  }
  for (std::size_t i = tree.intervals.size(); i-- > 1;) {
    if (is_parallel_region(tree.intervals[i].identity) || holds_region[i])
      holds_region[tree.intervals[i].parent] = true;
  }
  // Serial: one processor ran it, outside parallel regions and holding none. A serial interval
  // nested in another is part of it: only the outermost are sections.
  std::vector<bool> serial(tree.intervals.size(), false);
  std::vector<SerialSection> outermost;
  for (std::size_t i = 1; i < tree.intervals.size(); ++i) {
    const MergedInterval& interval = tree.intervals[i];
    serial[i] = !in_region[i] && !holds_region[i] && !is_parallel_region(interval.identity) &&
                characteristics[i].processors == 1;
    bool nested = false;
    for (std::size_t a = interval.parent; a != 0 && !nested; a = tree.intervals[a].parent) nested = serial[a];
    if (serial[i] && !nested) outermost.push_back({interval.identity, characteristics[i].execution_time});
  }
  std::stable_sort(outermost.begin(), outermost.end(), [](const SerialSection& a, const SerialSection& b) {
    return a.execution_time > b.execution_time;
  });
  const double longest = outermost.empty() ? 0 : outermost.front().execution_time;
  std::erase_if(outermost,
                [&](const SerialSection& s) { return s.execution_time < kSectionWorthNaming * longest; });
  if (outermost.size() > kMostSections) outermost.resize(kMostSections);
  return outermost;
}

std::vector<Finding> main_findings(const Characteristics& program, const std::vector<SrcPoint>& points,
                                   const std::vector<LoopBalance>& loops,
                                   const std::vector<SerialSection>& sections) {
  std::vector<Finding> findings;
  if (program.total_time <= 0) return findings;
  if (auto startup = startup_finding(program, points)) findings.push_back(std::move(*startup));
  std::size_t point_findings = 0;
  for (const SrcPoint& p : points) {
    if (point_findings == kMostPoints) break;
    const double share = p.lost() / program.total_time;
    if (share < kWorthSaying) break;  // sorted: the rest lose less
    Finding finding;
    finding.src_point = p;
    finding.share = share;
    finding.estimated_gain = p.lost();
    classify_src_point(finding, p);
    findings.push_back(std::move(finding));
    ++point_findings;
  }
  std::vector<Finding> unbalanced;
  for (const LoopBalance& loop : loops) {
    auto finding = unbalanced_loop(loop, program.total_time);
    if (finding && finding->share >= kWorthSaying) unbalanced.push_back(std::move(*finding));
  }
  std::stable_sort(unbalanced.begin(), unbalanced.end(),
                   [](const Finding& a, const Finding& b) { return a.estimated_gain > b.estimated_gain; });
  if (unbalanced.size() > kMostPoints) unbalanced.resize(kMostPoints);
  for (Finding& f : unbalanced) findings.push_back(std::move(f));
  if (auto sequential = sequential_finding(program, sections)) findings.push_back(std::move(*sequential));
  if (auto setup = setup_finding(program, points)) findings.push_back(std::move(*setup));
  return findings;
}

}  // namespace parperf::analysis
