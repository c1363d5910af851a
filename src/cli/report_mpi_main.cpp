// parperf-report-mpi: `parperf report` and `parperf whatif` as an MPI job, for traced runs too large
// to analyse in one process. `parperf report --np K DIR` (or `whatif --np K`) starts it under mpirun,
// and `mpirun -np K parperf report DIR` hands over to it (mpi_job_handover.hpp); it takes the same
// subcommands and options. Every process loads the run's profiles and analyses its part of the traces
// with the others (trace_parts_analysis.hpp); process 0 prints, the same as a serial command would.
#include <mpi.h>

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <exception>
#include <new>
#include <string>
#include <thread>

#include "analysis/trace/analysis_heap.hpp"
#include "cli/commands.hpp"
#include "cli/mpi_part_exchange.hpp"
#include "cli/mpi_sleeping_wait.hpp"
#include "cli/trace_parts_analysis.hpp"
#include "cli/trace_source.hpp"

int main(int argc, char** argv) {
  parperf::analysis::keep_freed_memory_for_reuse();
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int status = 0;
  {
    // Every process's part of the analysis, which the analysis holds until the report is printed.
    parperf::cli::MpiPartExchange exchange(MPI_COMM_WORLD);
    parperf::cli::TraceSource& source = parperf::cli::trace_source();
    source.analyse = [&exchange](const parperf::analysis::RunData& run,
                                 const parperf::analysis::SiteTable& sites) {
      return parperf::cli::analyse_traces_by_parts(run, sites, exchange);
    };
    source.prints = me == 0;
    source.shared = true;

    CLI::App app{"parperf-report-mpi: parperf report and whatif as an MPI job", "parperf-report-mpi"};
    app.require_subcommand(1);
    parperf::cli::add_report_command(app);
    parperf::cli::add_whatif_command(app);
    // The commands say their own errors (command_errors.hpp: those every process meets alike, only
    // the first); what escapes them is said by the process that met it.
    const auto say = [me](const std::string& message) {
      fmt::print(stderr, "parperf{}: {}\n", me == 0 ? "" : fmt::format(" (analysis process {})", me),
                 message);
    };
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
      say("not enough memory for this command: run it where more memory is free");
      status = 1;
    } catch (const std::exception& e) {
      say(e.what());
      status = 1;
    }
    // A process that failed alone must not leave the others waiting. An error every process meets
    // (a damaged file) is said by the first: the others give it a second to say it and end the job.
    if (status != 0) {
      if (me != 0) std::this_thread::sleep_for(std::chrono::seconds(1));
      MPI_Abort(MPI_COMM_WORLD, status);
    }
  }
  // The others wait here while the first analyses: asleep, not polling in MPI_Finalize's barrier.
  parperf::cli::barrier_sleeping(MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
