#include "analysis/trace/trace_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <latch>
#include <optional>

#include "analysis/trace/replay.hpp"
#include "analysis/trace/side_by_side.hpp"
#include "analysis/trace/trace_samples.hpp"

namespace parperf::analysis {
namespace {

// Counts a latch down when its scope ends, however it ends: the part that waits for it is never left
// waiting by an exception.
class CountDownOnExit {
 public:
  explicit CountDownOnExit(std::latch& latch) : latch_(latch) {}
  CountDownOnExit(const CountDownOnExit&) = delete;
  CountDownOnExit& operator=(const CountDownOnExit&) = delete;
  ~CountDownOnExit() { latch_.count_down(); }

 private:
  std::latch& latch_;
};

}  // namespace

std::string independent_locations_warning(const ActivityGraph& g) {
  if (!g.locations_independent()) return {};
  return fmt::format(
      "the trace links no dependency between the run's {} locations (their synchronization is not in it: "
      "threads of the program's own are not traced, only OpenMP's): the critical path, the replay and "
      "`parperf whatif` take them as independent, and what a change would gain through that "
      "synchronization is in none of their figures",
      g.locations.size());
}

TraceAnalysis analyse_traces(const TraceRun& traces, unsigned threads) {
  // Reading the traces into the graph's nodes needs nothing matched: it runs while the communication
  // is matched (both decode the traces; neither waits for the other). In turn, the matching comes
  // first: what it keeps (21 bytes an event in a halo exchange) is less than its own peak (32), and
  // the draft, which makes its nodes rank by rank, holds 44 at most; the other order held the draft
  // beside the matching's peak.
  // The matching takes less time than the reading (a real 8-rank run: 130 against 240 ms): once it
  // is done, its thread reads ranks ahead of the draft's (help_read), which holds one rank's points
  // more at most.
  // On one thread the draft counts its nodes as the matching reads the events (it decodes every event
  // anyway): the trace is decoded twice instead of three times. On two, the draft's thread counts in a
  // pass of its own while the other matches: counting with the matching would leave it waiting.
  Communication communication;
  std::optional<ActivityGraphDraft> draft(std::in_place, traces, ActivityGraphDraft::unread);
  if (threads <= 1) {
    communication = match_communication(traces, &draft->counter());
    draft->read();
  } else {
    run_side_by_side(
        threads,
        [&] {
          communication = match_communication(traces);
          draft->help_read();
        },
        [&] { draft->read(); });
  }
  TraceAnalysis a;
  std::vector<std::string> sample_warnings;
  a.ranks = traces.ranks.size();
  a.processes = a.ranks > 1 || std::any_of(traces.ranks.begin(), traces.ranks.end(), [](const RankTrace& r) {
                  return r.profile && (r.profile->has_mpi || r.profile->has_shmem);
                });
  a.messages = communication.messages.size();
  a.unmatched_sends = communication.unmatched_sends;
  a.unmatched_receives = communication.unmatched_receives;
  a.collectives = communication.collectives.size();
  a.incomplete_collectives = communication.incomplete_collectives;
  a.clock = check_clocks(communication);  // as corrected, before the repair
  auto graph = std::make_shared<ActivityGraph>(std::move(*draft).finish(communication));
  draft.reset();
  a.repair = repair_clock_condition(*graph);
  // Everything after reads the repaired graph (and the wait states the matched calls, moved as the
  // repair moved their locations) and writes only its own results: four parts, shared out between
  // two threads as each is free, the longest (POP and the self-check, after fitting the network
  // they replay on) taken as soon as it can start, the shortest last. A replay holds
  // 13 bytes an event, 8 a node: POP's two and the self-check are one part, never run beside another
  // replay (two held 26 bytes an event beside the graph's 33 in a halo exchange, more than the
  // linking), and only once the wait states have let go of the matched messages (0.18 an event, 88
  // bytes each). The critical path and the delay costs hold next to nothing.
  const bool sampled = std::any_of(traces.ranks.begin(), traces.ranks.end(),
                                   [](const RankTrace& r) { return !r.trace->sample_blocks.empty(); });
  std::latch communication_freed(1);
  run_parts(threads, {[&] {
                        const CountDownOnExit freed(communication_freed);  // also when the wait states fail
                        repair_communication(communication, a.repair);
                        a.waits = find_wait_states(traces, communication);
                        communication = {};
                      },
                      [&] {
                        // The path's pieces, the samples decoded and their stacks named only when the
                        // traces hold samples; the pieces are let go once the path's functions are found.
                        a.critical_path =
                            critical_path(*graph, sampled ? PathPieces::kept : PathPieces::none);
                        if (sampled) {
                          TraceSamples samples = load_trace_samples(traces);
                          a.critical_path.functions =
                              path_functions(a.critical_path.pieces, a.critical_path.length_ns, samples);
                          sample_warnings = std::move(samples.warnings);
                          std::vector<PathPiece>().swap(a.critical_path.pieces);
                        }
                      },
                      [&] {
                        a.network = fit_network(*graph);
                        communication_freed.wait();
                        a.pop = pop_factors(*graph, a.network);
                        a.replayed_ns = replay(*graph, a.network, {}).length();  // the self-check
                      },
                      [&] { a.delays = delay_costs(*graph); }});
  a.graph = std::move(graph);
  a.warnings = traces.warnings;
  a.warnings.insert(a.warnings.end(), traces.clocks.warnings.begin(), traces.clocks.warnings.end());
  a.warnings.insert(a.warnings.end(), sample_warnings.begin(), sample_warnings.end());
  if (std::string w = independent_locations_warning(*a.graph); !w.empty()) a.warnings.push_back(std::move(w));
  return a;
}

}  // namespace parperf::analysis
