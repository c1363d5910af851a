#include "report/diff_figures.hpp"

namespace parperf::report {

using analysis::ComparedFigure;

std::string_view compared_figure_key(ComparedFigure figure) {
  switch (figure) {
    case ComparedFigure::execution_time:
      return "execution_time";
    case ComparedFigure::total_time:
      return "total_time";
    case ComparedFigure::productive_time:
      return "productive_time";
    case ComparedFigure::lost_time:
      return "lost_time";
    case ComparedFigure::insufficient_parallelism:
      return "insufficient_parallelism";
    case ComparedFigure::communication:
      return "communication";
    case ComparedFigure::idle_time:
      return "idle_time";
    case ComparedFigure::desync:
      return "desync_time";
    case ComparedFigure::waiting:
      return "waiting_time";
    case ComparedFigure::load_imbalance:
      return "load_imbalance";
    case ComparedFigure::synchronization:
      return "synchronization";
    case ComparedFigure::time_variation:
      return "time_variation";
    case ComparedFigure::startup:
      return "startup_time";
    case ComparedFigure::efficiency:
      return "efficiency";
    case ComparedFigure::processors:
      return "processors";
    case ComparedFigure::entries:
      return "count";  // as `parperf report --json` calls the entries
  }
  return "unknown";
}

std::string_view compared_figure_words(ComparedFigure figure) {
  switch (figure) {
    case ComparedFigure::execution_time:
      return "execution time";
    case ComparedFigure::total_time:
      return "total time";
    case ComparedFigure::productive_time:
      return "productive time";
    case ComparedFigure::lost_time:
      return "lost time";
    case ComparedFigure::insufficient_parallelism:
      return "insufficient parallelism";
    case ComparedFigure::communication:
      return "communication";
    case ComparedFigure::idle_time:
      return "idle time";
    case ComparedFigure::desync:
      return "desync time";
    case ComparedFigure::waiting:
      return "sync waiting";
    case ComparedFigure::load_imbalance:
      return "load imbalance";
    case ComparedFigure::synchronization:
      return "synchronization";
    case ComparedFigure::time_variation:
      return "time variation";
    case ComparedFigure::startup:
      return "start-up";
    case ComparedFigure::efficiency:
      return "efficiency";
    case ComparedFigure::processors:
      return "processors";
    case ComparedFigure::entries:
      return "entries";
  }
  return "unknown";
}

}  // namespace parperf::report
