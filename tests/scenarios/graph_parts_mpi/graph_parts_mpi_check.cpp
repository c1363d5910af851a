// The analyses of the activity graph by parts run by the processes of an MPI job, as `parperf report
// --np K` runs them: each process builds the same hand-made runs (analysis_graph_parts_runs.hpp),
// analyses the whole graph itself, then its part together with the others over MPI
// (MpiPartExchange): each process reads, matches, links and orders its part from its own ranks'
// traces with the others, then analyses it with them, and checks that its part's results are the whole
// graph's, to the bit. Prints "parts agree" and exits 0, or names the first figure that differs and exits 1.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/delay_costs.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/graph_part_build.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/part_matching.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/what_if.hpp"
#include "cli/mpi_part_exchange.hpp"
#include "unit/analysis_graph_parts_runs.hpp"

namespace {

using namespace parperf::analysis;

int failures = 0;
int me = 0;

template <class T>
void same(const T& parts, const T& whole, const std::string& what) {
  if (parts == whole) return;
  if (failures++ < 10)
    std::fprintf(stderr, "process %d: %s differs from the whole graph's\n", me, what.c_str());
}

void check(const TraceRun& run, const std::string& name, parperf::cli::MpiPartExchange& exchange) {
  const ActivityGraph measured = build_activity_graph(run, match_communication(run));
  ActivityGraph whole = measured;
  const ClockRepair whole_repair = repair_clock_condition(whole);
  const NetworkModel whole_network = fit_network(whole);

  // The part read, matched, linked and ordered from its own ranks' traces, with the other parts.
  const RankPartition ranks = partition_ranks(run, exchange.parts());
  GraphPartDraft draft = read_graph_part(run, ranks, exchange.part(), exchange);
  const Communication communication = match_communication(run, ranks, exchange.part(), exchange);
  GraphPart part = link_graph_part(std::move(draft), communication, run, ranks, exchange);
  same(part.global_hubs,
       cut_graph_part(measured, partition_locations(measured, run, ranks), exchange.part()).global_hubs,
       name + ": the part's hubs and ghosts");
  const ClockRepair repair = repair_clock_condition(part, exchange);
  same(repair.moved, whole_repair.moved, name + ": the nodes the repair moved");
  same(repair.largest_shift_ns, whole_repair.largest_shift_ns, name + ": the repair's largest shift");
  for (std::uint32_t k = 0; k < part.graph.nodes(); ++k)
    same(part.graph.time[k], whole.time[part.global(k)],
         name + ": node " + std::to_string(part.global(k)) + "'s repaired time");

  const NetworkModel network = fit_network(part, exchange);
  same(network.latency_ns, whole_network.latency_ns, name + ": the fitted latency");
  same(network.bytes_per_ns, whole_network.bytes_per_ns, name + ": the fitted bandwidth");

  ReplayChanges slow;
  slow.network = ReplayChanges::Network::model;
  slow.model = {.latency_ns = 2e5, .bytes_per_ns = 0.05};
  slow.balance = {"compute", "stage"};
  const ReplayResult replayed = replay_part(part, network, slow, exchange);
  const ReplayResult whole_replayed = replay(whole, whole_network, slow);
  same(replayed.end_ns, whole_replayed.end_ns, name + ": the replay's end");
  same(replayed.last, whole_replayed.last, name + ": the replay's last node");
  for (std::uint32_t k = 0; k < part.graph.nodes(); ++k)
    same(replayed.time[k], whole_replayed.time[part.global(k)],
         name + ": node " + std::to_string(part.global(k)) + "'s replayed time");

  same(pop_factors(part, network, exchange), pop_factors(whole, whole_network), name + ": the POP factors");

  const CriticalPath path = critical_path(part, exchange);
  const CriticalPath whole_path = critical_path(whole);
  same(path.length_ns, whole_path.length_ns, name + ": the critical path's length");
  same(path.while_others_work_ns, whole_path.while_others_work_ns,
       name + ": the path's time while others work");
  same(path.location_changes, whole_path.location_changes, name + ": the path's location changes");
  same(path.intervals.size(), whole_path.intervals.size(), name + ": the path's intervals");
  for (std::size_t i = 0; i < path.intervals.size() && i < whole_path.intervals.size(); ++i)
    same(path.intervals[i].time_ns, whole_path.intervals[i].time_ns,
         name + ": an interval's time on the path");

  const DelayCosts delays = delay_costs(part, exchange);
  const DelayCosts whole_delays = delay_costs(whole);
  same(delays.charged_ns, whole_delays.charged_ns, name + ": the waiting charged to computation");
  same(delays.causes.size(), whole_delays.causes.size(), name + ": the delays' causes");
  for (std::size_t i = 0; i < delays.causes.size() && i < whole_delays.causes.size(); ++i)
    same(delays.causes[i].delay_ns, whole_delays.causes[i].delay_ns, name + ": a cause's delay");
}

// The whole analysis by parts (analyse_traces_by_parts, as `report --np K` makes it), each process
// holding only its own ranks' traces, against one process's analysis: the figures the reports print.
void check_analysis(const TraceRun& run, const std::string& name, parperf::cli::MpiPartExchange& exchange) {
  const TraceAnalysis whole = analyse_traces(run);
  const RankPartition ranks = partition_ranks(run, exchange.parts());
  TraceRun seen = run;
  for (std::size_t r = 0; r < seen.ranks.size(); ++r)
    if (r < ranks.first_rank[exchange.part()] || r >= ranks.first_rank[exchange.part() + 1])
      seen.ranks[r].trace = nullptr;
  const TraceAnalysis parts = analyse_traces_by_parts(seen, ranks, exchange);
  same(parts.messages, whole.messages, name + ": the messages");
  same(parts.clock.violations, whole.clock.violations, name + ": the clock check's violations");
  same(parts.repair.moved, whole.repair.moved, name + ": the nodes the repair moved");
  same(parts.graph->unlinked.cycles_broken, whole.graph->unlinked.cycles_broken,
       name + ": the dependencies dropped to break cycles");
  same(parts.waits.patterns.size(), whole.waits.patterns.size(), name + ": the wait states' patterns");
  for (std::size_t i = 0; i < parts.waits.patterns.size() && i < whole.waits.patterns.size(); ++i)
    same(parts.waits.patterns[i].lost_ns, whole.waits.patterns[i].lost_ns, name + ": a pattern's waiting");
  same(parts.critical_path.length_ns, whole.critical_path.length_ns, name + ": the critical path's length");
  same(parts.pop, whole.pop, name + ": the POP factors");
  same(parts.replayed_ns, whole.replayed_ns, name + ": the replay's self-check");
  same(parts.delays.charged_ns, whole.delays.charged_ns, name + ": the waiting charged to computation");
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  same(what_if(parts, ideal).predicted_ns, what_if(whole, ideal).predicted_ns,
       name + ": the time predicted on an ideal network");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  {
    parperf::cli::MpiPartExchange exchange(MPI_COMM_WORLD);
    parperf::test::TraceRunBuilder rich, chain;
    check(parperf::test::rich_run(rich, 5), "a hybrid run of 5 ranks", exchange);
    check(parperf::test::chain_run(chain, 6), "a chain of 6 ranks", exchange);
    parperf::test::TraceRunBuilder hybrid, reply, ring, shmem;
    check_analysis(parperf::test::rich_run(hybrid, 5), "the analysis of a hybrid run of 5 ranks", exchange);
    check_analysis(parperf::test::reduce_then_reply_run(reply, 4), "the analysis of a reduce and its replies",
                   exchange);
    check_analysis(parperf::test::crossed_ring_run(ring, 5),
                   "the analysis of a ring whose messages form cycles", exchange);
    check_analysis(parperf::test::shmem_run(shmem, 6), "the analysis of an OpenSHMEM run of 6 PEs", exchange);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) std::printf("parts agree\n");
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
