// parperf-report-mpi: `parperf report` and `parperf whatif` as an MPI job, for traced runs too large
// to analyse in one process. `parperf report --np K DIR` (or `whatif --np K`) starts it under mpirun,
// and `mpirun -np K parperf report DIR` hands over to it (mpi_job_handover.hpp); it takes the same
// subcommands and options. Every process loads the run's profiles and reads its share of the trace
// files (shared_trace_loading.hpp); process 0 analyses and prints, the same as a serial command would.
#include <mpi.h>

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <new>

#include "analysis/trace/analysis_heap.hpp"
#include "cli/commands.hpp"
#include "cli/mpi_sleeping_wait.hpp"
#include "cli/shared_trace_loading.hpp"
#include "cli/trace_source.hpp"

int main(int argc, char** argv) {
  parperf::analysis::keep_freed_memory_for_reuse();
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  parperf::cli::TraceSource& source = parperf::cli::trace_source();
  source.load = parperf::cli::load_traces_shared;
  source.prints = me == 0;
  source.shared = true;

  CLI::App app{"parperf-report-mpi: parperf report and whatif as an MPI job", "parperf-report-mpi"};
  app.require_subcommand(1);
  parperf::cli::add_report_command(app);
  parperf::cli::add_whatif_command(app);
  int status = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // the report printed its own message
    status = e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    if (me == 0)
      fmt::print(stderr, "parperf: {}\nRun 'parperf {} --help' for more information.\n", e.what(),
                 app.get_subcommands().empty() ? "report" : app.get_subcommands().front()->get_name());
    status = 2;
  } catch (const std::bad_alloc&) {  // "std::bad_alloc" would say nothing to the user
    fmt::print(stderr, "parperf: not enough memory for this command: run it where more memory is free\n");
    status = 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf: {}\n", e.what());
    status = 1;
  }
  // A process that failed alone (its share of the files) must not leave the others waiting.
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  // The others wait here while the first analyses: asleep, not polling in MPI_Finalize's barrier.
  parperf::cli::barrier_sleeping(MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
