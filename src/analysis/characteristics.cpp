#include "analysis/characteristics.hpp"

#include <algorithm>

namespace parperf::analysis {
namespace {

double execution_time(std::span<const ProcessorInput> processors) {
  double execution = 0;
  for (const ProcessorInput& p : processors) execution = std::max(execution, p.execution);
  return execution;
}

double max_productive(std::span<const ProcessorInput> processors) {
  double max_cpu = 0;
  for (std::size_t i = 0; i < processors.size(); ++i) {
    max_cpu = i == 0 ? processors[i].productive() : std::max(max_cpu, processors[i].productive());
  }
  return max_cpu;
}

}  // namespace

Characteristics characterize(std::span<const ProcessorInput> processors) {
  Characteristics c;
  c.processors = processors.size();
  c.execution_time = execution_time(processors);
  c.total_time = static_cast<double>(c.processors) * c.execution_time;
  double max_cpu = max_productive(processors);
  for (const ProcessorInput& p : processors) {
    c.threads += p.process_threads;
    const TimeBreakdown& b = p.breakdown;
    c.productive_time += p.productive();
    c.productive_sys += b.productive_sys;
    c.productive_io += b.productive_io;
    c.insufficient_parallelism_user += b.insufficient_parallelism_user;
    c.insufficient_parallelism_sys += b.insufficient_parallelism_sys;
    c.communication_real_sync += b.communication_real_sync;
    c.communication_starts += b.communication_starts;
    c.desync += b.desync;
    c.waiting += b.waiting;
    c.idle_within_processes += p.idle_within;
    c.idle_time += (c.execution_time - p.execution) + p.idle_within;
    c.load_imbalance += max_cpu - p.productive();
    c.synchronization += b.synchronization;
    c.time_variation += b.time_variation;
    c.overlap += b.overlap;
    c.startup += b.startup;
    c.shutdown += b.shutdown;
    c.os_cpu_user += p.os_cpu_user;
    c.os_cpu_sys += p.os_cpu_sys;
    c.entries += p.entries;
  }
  c.productive_cpu = c.productive_time - c.productive_sys - c.productive_io;
  c.insufficient_parallelism = c.insufficient_parallelism_user + c.insufficient_parallelism_sys;
  c.communication = c.communication_real_sync + c.communication_starts;
  c.lost_time = c.insufficient_parallelism + c.communication + c.idle_time + c.desync + c.waiting;
  c.efficiency = c.total_time > 0 ? c.productive_time / c.total_time : 1.0;
  return c;
}

double accounting_gap(const Characteristics& c) { return c.total_time - (c.productive_time + c.lost_time); }

std::vector<ProcessorFigures> processor_figures(std::span<const ProcessorInput> processors) {
  double execution = execution_time(processors);
  double max_cpu = max_productive(processors);
  std::vector<ProcessorFigures> figures;
  figures.reserve(processors.size());
  for (const ProcessorInput& p : processors) {
    double waits_for_slowest = execution - p.execution;
    const TimeBreakdown& b = p.breakdown;
    figures.push_back(ProcessorFigures{
        .processor = p.processor,
        .rank = p.rank,
        .thread = p.thread,
        .entries = p.entries,
        .execution_time = p.execution,
        .productive_time = p.productive(),
        .lost_time = p.lost() + waits_for_slowest,
        .idle_time = waits_for_slowest + p.idle_within,
        .load_imbalance = max_cpu - p.productive(),
        .insufficient_parallelism = b.insufficient_parallelism_user + b.insufficient_parallelism_sys,
        .communication = b.communication_real_sync + b.communication_starts,
        .os_cpu_user = p.os_cpu_user,
        .os_cpu_sys = p.os_cpu_sys,
    });
  }
  return figures;
}

double figure_value(const ProcessorFigures& p, Figure figure) {
  switch (figure) {
    case Figure::execution_time:
      return p.execution_time;
    case Figure::productive_time:
      return p.productive_time;
    case Figure::lost_time:
      return p.lost_time;
    case Figure::idle_time:
      return p.idle_time;
    case Figure::load_imbalance:
      return p.load_imbalance;
    case Figure::insufficient_parallelism:
      return p.insufficient_parallelism;
    case Figure::communication:
      return p.communication;
    case Figure::os_cpu_user:
      return p.os_cpu_user;
    case Figure::os_cpu_sys:
      return p.os_cpu_sys;
    case Figure::entries:
      return static_cast<double>(p.entries);
  }
  return 0;
}

Extreme compare_values(std::vector<ProcessorValue> values) {
  Extreme e;
  if (values.empty()) return e;
  std::stable_sort(values.begin(), values.end(), [](const ProcessorValue& a, const ProcessorValue& b) {
    return a.processor < b.processor;
  });
  double sum = 0;
  for (const ProcessorValue& v : values) {
    sum += v.value;
    // Strict comparisons keep the lowest processor number on ties.
    if (!e.min_processor || v.value < e.min) {
      e.min = v.value;
      e.min_processor = v.processor;
    }
    if (!e.max_processor || v.value > e.max) {
      e.max = v.value;
      e.max_processor = v.processor;
    }
  }
  e.mean = sum / static_cast<double>(values.size());
  return e;
}

Comparative compare_processors(std::span<const ProcessorFigures> processors) {
  Comparative comparative;
  for (Figure figure : kFigures) {
    std::vector<ProcessorValue> values;
    values.reserve(processors.size());
    for (const ProcessorFigures& p : processors) values.push_back({p.processor, figure_value(p, figure)});
    comparative.extremes[static_cast<std::size_t>(figure)] = compare_values(std::move(values));
  }
  return comparative;
}

}  // namespace parperf::analysis
