// mpirun -np K parperf-graph-parts-bench DIR [REPETITIONS]: what the analysis of a real traced run's
// graph by parts costs against the whole graph's, on the processes of an MPI job (graph_part.hpp).
// Every process builds the whole graph (repaired) and cuts its part; then, REPETITIONS times (5 if
// not given), the whole graph's replay on the fitted network and critical path (on every process,
// as one process would), and the same by parts: the parts' order, the replay and the critical path.
// Prints, on process 0, the median of each and the ratio of by parts to whole, the part's nodes and
// ghosts. A sweep by parts waits for its neighbours' boundaries: its cost is those waits.
#include <mpi.h>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/part_order.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/trace_run.hpp"
#include "cli/mpi_part_exchange.hpp"

namespace {

using namespace parperf;

// The median of `repetitions` runs of f, each begun by every process at once.
double median_seconds(int repetitions, const std::function<void()>& f) {
  std::vector<double> seconds;
  for (int i = 0; i < repetitions; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    f();
    MPI_Barrier(MPI_COMM_WORLD);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc < 2 || argc > 3) {
    if (me == 0) fmt::print(stderr, "usage: mpirun -np K parperf-graph-parts-bench DIR [REPETITIONS]\n");
    MPI_Finalize();
    return 2;
  }
  const int repetitions = argc == 3 ? std::max(1, std::stoi(argv[2])) : 5;
  int status = 0;
  {
    cli::MpiPartExchange exchange(MPI_COMM_WORLD);
    const analysis::RunData run = analysis::load_run(argv[1]);
    const analysis::TraceRun traces = analysis::load_traces(run);
    analysis::ActivityGraph whole =
        analysis::build_activity_graph(traces, analysis::match_communication(traces));
    analysis::repair_clock_condition(whole);
    const analysis::NetworkModel fitted = analysis::fit_network(whole);
    analysis::GraphPart part = analysis::cut_graph_part(
        whole,
        analysis::partition_locations(whole, traces, analysis::partition_ranks(traces, exchange.parts())),
        exchange.part());
    part.graph.order = analysis::order_part(part, exchange);
    const analysis::ReplayChanges changes;  // the fitted network
    const double whole_replay =
        median_seconds(repetitions, [&] { analysis::replay(whole, fitted, changes); });
    const double parts_replay =
        median_seconds(repetitions, [&] { analysis::replay_part(part, fitted, changes, exchange); });
    const double whole_path = median_seconds(repetitions, [&] { analysis::critical_path(whole); });
    const double parts_path = median_seconds(repetitions, [&] { analysis::critical_path(part, exchange); });
    const double parts_order =
        median_seconds(repetitions, [&] { part.graph.order = analysis::order_part(part, exchange); });
    const std::uint64_t nodes = part.first_ghost, ghosts = part.graph.nodes() - part.first_ghost;
    std::vector<unsigned long long> all(2 * static_cast<std::size_t>(exchange.parts()));
    const unsigned long long mine[2] = {nodes, ghosts};
    MPI_Gather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (me == 0) {
      fmt::print("{}: {} nodes, {} parts; medians of {}\n", argv[1], whole.nodes(), exchange.parts(),
                 repetitions);
      for (std::uint32_t p = 0; p < exchange.parts(); ++p)
        fmt::print("  part {}: {} nodes and hubs, {} ghosts\n", p, all[2 * p], all[2 * p + 1]);
      fmt::print("  replay (fitted network): whole {:.1f} ms, by parts {:.1f} ms (x{:.2f})\n",
                 whole_replay * 1e3, parts_replay * 1e3, parts_replay / whole_replay);
      fmt::print("  critical path: whole {:.1f} ms, by parts {:.1f} ms (x{:.2f})\n", whole_path * 1e3,
                 parts_path * 1e3, parts_path / whole_path);
      fmt::print("  the parts' order: {:.1f} ms\n", parts_order * 1e3);
    }
  }
  MPI_Finalize();
  return status;
}
