// The MPI parts of the JSON report (json_report.hpp has the whole layout; docs/report.md every field).
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/collective_matching.hpp"
#include "analysis/mpi_calls.hpp"
#include "report/report_model.hpp"

namespace parperf::report {

// run.mpi: {"library", "latency", "bandwidth", "thread_level", "clock": [...]}, or null.
nlohmann::ordered_json mpi_run_json(const std::optional<MpiSummary>& mpi);

// An interval's "communication_classes" and "mpi_calls" arrays.
nlohmann::ordered_json communication_classes_json(
    const std::vector<analysis::CommunicationClassFigures>& rows);
nlohmann::ordered_json mpi_calls_json(const std::vector<analysis::MpiCallFigures>& calls);

// The top-level "mpi": {"collectives": [...]}.
nlohmann::ordered_json mpi_json(const std::vector<analysis::CommunicatorMatch>& communicators);

}  // namespace parperf::report
