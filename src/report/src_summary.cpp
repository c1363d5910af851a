#include "report/src_summary.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "format/records.hpp"
#include "report/delay_cause_sentence.hpp"
#include "report/diagnosis.hpp"
#include "report/interval_kind.hpp"
#include "report/location_label.hpp"
#include "report/loop_balance_text.hpp"
#include "report/sampled_cause_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::Finding;
using analysis::FindingKind;
using format::SiteKind;

bool is(std::uint32_t kind, SiteKind k) { return kind == static_cast<std::uint32_t>(k); }

std::string percent(double share) { return fmt::format("{:.0f} %", share * 100); }

// Why an OpenMP synchronization point loses time, and what would recover it.
std::string why(const Finding& f, const analysis::SrcPoint& p) {
  std::string text;
  switch (f.kind) {
    case FindingKind::unbalanced_barrier:
      text = fmt::format(": the threads' work there is unbalanced (max/mean {:.2f})", p.imbalance);
      break;
    case FindingKind::preemption:
      text = fmt::format(
          ": the threads' work there is balanced (max/mean {:.2f}), but they were on a CPU only {} of "
          "the time ({} off it): preemption, threads were off the CPU (machine oversubscribed or "
          "other load) while the others waited",
          p.imbalance, percent(f.evidence_value("on_cpu_share")),
          format_duration(f.evidence_value("off_cpu")));
      break;
    case FindingKind::late_arrival_barrier:
      text = ": the threads arrive at different times";
      if (p.imbalance > 0)
        text += fmt::format(
            " although their work there is balanced (max/mean {:.2f}): a delay outside the work (system "
            "noise, page faults, preemption the OS CPU times cannot show)",
            p.imbalance);
      break;
    case FindingKind::critical_contention:
      text = fmt::format(": {} entries waited {:.3g} ms on average to enter", p.count,
                         p.count ? p.wait / static_cast<double>(p.count) * 1e3 : 0.0);
      break;
    case FindingKind::lock_contention:
      return fmt::format(": threads contend for the lock ({} acquisitions)", p.count);
    case FindingKind::ordered_wait:
      return ": threads wait for their ordered turn";
    case FindingKind::barrier_arrival:
      return ": threads arrive at the barrier at different times (unbalanced work before it)";
    case FindingKind::task_wait:
      return ": threads wait for tasks to complete";
    default:
      return "";
  }
  switch (f.remedy) {
    case analysis::Remedy::dynamic_schedule:
      text += fmt::format("; a dynamic or guided schedule would recover up to {}", percent(f.share));
      break;
    case analysis::Remedy::shorten_critical_section:
      text += "; shorten the section or use atomics or reductions";
      break;
    case analysis::Remedy::fewer_threads_than_cores:
      text += "; run no more threads than free cores, or on a quiet machine";
      break;
    case analysis::Remedy::cost_aware_partition:
    case analysis::Remedy::unit_stride_access:
    case analysis::Remedy::none:
      break;
  }
  return text;
}

// Whom a call waiting for its partner waits for, by the kind of call (and, for a window's
// synchronizations, which one: they share a kind).
std::string_view waits_for(std::uint32_t kind, std::string_view name) {
  if (name == "MPI_Win_lock" || name == "MPI_Win_lock_all")
    return "for another rank to release the window lock it takes";
  if (name == "MPI_Win_start") return "for its targets to post their windows";
  if (name == "MPI_Win_wait") return "for its origins to complete their accesses";
  if (is(kind, SiteKind::mpi_recv) || is(kind, SiteKind::mpi_probe)) return "for a late sender";
  if (is(kind, SiteKind::mpi_send)) return "for a late receiver";
  if (is(kind, SiteKind::mpi_sendrecv)) return "for its partner";
  if (is(kind, SiteKind::mpi_wait) || is(kind, SiteKind::mpi_test))
    return "for its non-blocking communication to complete";
  if (is(kind, SiteKind::mpi_one_sided) || is(kind, SiteKind::mpi_one_sided_sync))
    return "for the other side of the one-sided access";
  return "for its partners";
}

// The partners of a waiting call; a one-sided call's is the target of its access.
std::string partner_text(const analysis::RankAtSite& r, std::uint32_t kind) {
  if (r.partner_min < 0 || r.partner_max < r.partner_min) return "";
  const std::string_view whose =
      is(kind, SiteKind::mpi_one_sided) || is(kind, SiteKind::mpi_one_sided_sync) ? "target " : "";
  if (r.partner_min == r.partner_max) return fmt::format(" ({}rank {})", whose, r.partner_min);
  return fmt::format(" ({}ranks {}-{})", whose, r.partner_min, r.partner_max);
}

// A finding about an MPI call site, in the terms of the communication pattern behind the loss.
std::string mpi_text(const Finding& f, const analysis::SrcPoint& p) {
  const std::string call = src_point_text(p);
  const std::string lost = fmt::format("{} of processor time is lost there", percent(f.share));
  if (f.kind == FindingKind::mpi_collective_arrival && f.late_rank && f.late_rank->last_arrivals > 0)
    return fmt::format(
        "rank {} arrives last at {} in {} of {} matched instances (ranks up to {:.3f} s apart, "
        "synchronization {:.3f} s: load imbalance before it); {}",
        f.late_rank->rank, call, percent(f.evidence_value("last_arrival_share")),
        f.late_rank->matched_instances, p.arrival_spread, p.synchronization, lost);
  if (f.kind == FindingKind::mpi_collective_arrival && f.late_rank)
    return fmt::format(
        "ranks arrive at the {} up to {:.3f} s apart: load imbalance before it (synchronization {:.3f} s; "
        "rank {} waits least there, {:.3f} s: the others wait for it); {}",
        call, p.arrival_spread, p.synchronization, f.late_rank->rank, f.late_rank->synchronization, lost);
  if (f.kind == FindingKind::mpi_collective_arrival)
    return fmt::format(
        "ranks arrive at the {} up to {:.3f} s apart: load imbalance before it (synchronization "
        "{:.3f} s); {}",
        call, p.arrival_spread, p.synchronization, lost);
  if (f.kind == FindingKind::mpi_waits_for_partner && f.waiting_rank)
    return fmt::format("rank {} waits {:.3f} s in {} {}{}; {}", f.waiting_rank->rank,
                       f.waiting_rank->real_sync, call, waits_for(p.identity.kind, p.identity.name),
                       partner_text(*f.waiting_rank, p.identity.kind), lost);
  return fmt::format(
      "{} of processor time is lost in {}: {} in the calls themselves, {} waiting for partners",
      percent(f.share), call, format_duration(p.starts), format_duration(p.wait));
}

bool is_mpi_finding(FindingKind kind) {
  return kind == FindingKind::mpi_collective_arrival || kind == FindingKind::mpi_waits_for_partner ||
         kind == FindingKind::mpi_call_cost;
}

// "the interval 'init' at f.c (10:40) (1.00 s), the sequential loop 'rows' at f.c:52 (300 ms)"
std::string sections_text(const std::vector<analysis::SerialSection>& sections) {
  std::string text;
  for (const analysis::SerialSection& s : sections) {
    if (!text.empty()) text += ", ";
    // An annotated interval is "the interval 'init'"; others are named by their kind ("sequential loop").
    const std::string_view kind =
        is(s.identity.kind, SiteKind::user) ? std::string_view("interval") : kind_text(s.identity.kind);
    text += fmt::format("the {} '{}' at {} ({})", kind, s.identity.name,
                        source_text(s.identity.file, s.identity.line, s.identity.end_line),
                        format_duration(s.execution_time));
  }
  return text;
}

std::string sequential_text(const Finding& f) {
  const std::string lost = fmt::format(
      "{} of thread time is lost to insufficient parallelism: code that runs on one thread while the "
      "others wait (outside parallel regions), or that every thread repeats (inside a parallel region, "
      "outside work-sharing constructs)",
      percent(f.share));
  const std::string sections =
      f.serial_sections.empty() ? "" : "; the longest serial sections: " + sections_text(f.serial_sections);
  if (f.kind == FindingKind::sequential_code) return lost + sections;
  std::string who = "the serial part limits";
  if (!f.serial_sections.empty())
    who = "the serial sections (" + sections_text(f.serial_sections) + ") limit";
  return fmt::format(
      "{} speedup to {:.1f}x at any thread count (Amdahl: serial fraction {:.2f}, {} of {} of "
      "work); {}",
      who, f.evidence_value("speedup_limit"), f.evidence_value("serial_fraction"),
      format_duration(f.evidence_value("serial_time")), format_duration(f.evidence_value("work")), lost);
}

std::string startup_text(const Finding& f) {
  const std::string call = f.startup_call ? f.startup_call->name : std::string("MPI_Init");
  return fmt::format(
      "start-up ({}) takes {} of this run: {} of processor time, against {} of Total time for the "
      "program's own work; shown apart (startup_time) and left out of every figure, so a longer run "
      "would amortize it",
      call, percent(f.share), format_duration(f.evidence_value("startup")),
      format_duration(f.evidence_value("total_time")));
}

std::string setup_text(const Finding& f) {
  return fmt::format(
      "MPI set-up calls take {} of processor time ({} in {:.0f} calls, the most in {}): communicator, "
      "group and window creation, in which the ranks wait for one another, counted as productive Sys "
      "time ({}) although it is not the program's own work",
      percent(f.share), format_duration(f.evidence_value("setup_time")), f.evidence_value("calls"),
      src_point_text(*f.src_point), format_duration(f.evidence_value("productive_sys")));
}

std::string locality_text(const Finding& f) {
  const analysis::FunctionPlace& place = *f.function;
  const std::string name = place.name.empty() ? "an unknown function" : "function " + place.name;
  const std::string where = place.file.empty() ? "" : " (" + source_text(place.file, place.line) + ")";
  return fmt::format(
      "spatial locality {:.2f} in {}{}, {} of the word accesses, {} of them with no short stride: a "
      "column-major walk over a row-major array, or another strided access? Walk arrays in memory "
      "order (interchange the loops)",
      f.evidence_value("spatial_locality"), name, where, percent(f.evidence_value("access_share")),
      percent(f.evidence_value("far_share")));
}

// "the parallel loop "compute" at heat.cpp:77 loses 87.3 ms, 8 % of the program's time: idle time is
// 15% of total: processor 1 finishes ..." — the interval's own diagnosis, as its line in the report.
std::string interval_loss_text(const Finding& f) {
  Finding cause = f;
  cause.kind = f.explains;
  cause.share = f.evidence_value("interval_share");
  const analysis::IntervalIdentity& id = *f.interval;
  // "the interval "solve"", "the parallel loop "compute"", "the program".
  std::string name = kind_text(id.kind) == "user" ? "interval" : std::string(kind_text(id.kind));
  if (!id.name.empty() && id.name != name) name += " \"" + id.name + "\"";
  const std::string where = id.file.empty() ? "" : " at " + source_text(id.file, id.line, id.end_line);
  return fmt::format("the {}{} loses {}, {} of the program's time: {}", name, where,
                     format_duration(f.estimated_gain), percent(f.share), diagnosis_text({cause}));
}

// "16 threads shared 2 cores: only 12 % of their time in the program ran on a CPU ..."
std::string threads_off_cpu_text(const Finding& f) {
  const auto threads = static_cast<std::int64_t>(f.evidence_value("threads"));
  const auto cores = static_cast<std::int64_t>(f.evidence_value("cores"));
  const std::string figures =
      fmt::format("{} of CPU time in {} of thread time", format_duration(f.evidence_value("cpu_time")),
                  format_duration(f.evidence_value("thread_time")));
  const std::string busy = f.evidence_value("cores_busy") > 0
                               ? fmt::format(", {:.1f} cores busy on average", f.evidence_value("cores_busy"))
                               : std::string();
  if (f.remedy == analysis::Remedy::fewer_threads_than_cores)
    return fmt::format(
        "{} threads shared {} core{}: only {} of their time in the program ran on a CPU ({}{}); the "
        "waits, late processors and low efficiency below are largely their turns for a core. Run no "
        "more threads than cores, or on a quiet machine",
        threads, cores, cores == 1 ? "" : "s", percent(f.on_cpu_share), figures, busy);
  const std::string where = cores > 0 ? fmt::format(" ({} threads, {} cores)", threads, cores)
                                      : fmt::format(" ({} threads)", threads);
  return fmt::format(
      "only {} of the threads' time in the program ran on a CPU{} ({}{}): they were sleeping, blocked "
      "or waiting for I/O, or other load took the cores; the waits below are partly that",
      percent(f.on_cpu_share), where, figures, busy);
}

// "rank 3's interval "work" at pop_cases.c:33 makes 3 other locations wait 960 ms in all (…)": the
// sentence of the report's root causes of waiting, with its share of all the run's waiting.
std::string delay_cause_text(const Finding& f) {
  const auto thread = static_cast<std::uint32_t>(f.evidence_value("thread"));
  const std::string who = f.late_rank
                              ? location_label(f.late_rank->rank, thread, f.evidence_value("processes") > 0,
                                               static_cast<std::uint32_t>(f.evidence_value("rank_threads")))
                              : std::string("a location");
  const std::string sentence =
      delay_cause_sentence({who, f.interval, f.evidence_value("delay"),
                            static_cast<std::uint64_t>(f.evidence_value("waiting_locations"))});
  const double waiting = f.evidence_value("waiting");
  return fmt::format("{} ({} of the run's waiting): the root cause of that waiting, from the event trace",
                     sentence, percent(waiting > 0 ? f.evidence_value("delay") / waiting : 0));
}

// The finding's own sentence, without what the samples add.
std::string finding_sentence(const Finding& f) {
  switch (f.kind) {
    case FindingKind::sequential_code:
    case FindingKind::amdahl_limit:
      return sequential_text(f);
    case FindingKind::unbalanced_loop:
      return unbalanced_loop_text(f);
    case FindingKind::startup:
      return startup_text(f);
    case FindingKind::mpi_setup:
      if (f.src_point) return setup_text(f);
      return "";
    case FindingKind::threads_off_cpu:
      return threads_off_cpu_text(f);
    case FindingKind::poor_spatial_locality:
      if (f.function) return locality_text(f);
      return "";
    case FindingKind::interval_loss:
      if (f.interval) return interval_loss_text(f);
      return "";
    case FindingKind::delay_cause:
      return delay_cause_text(f);
    default:
      break;
  }
  if (!f.src_point) return "";
  if (is_mpi_finding(f.kind)) return mpi_text(f, *f.src_point);
  return fmt::format("{} of thread time is lost at {}{}", percent(f.share), src_point_text(*f.src_point),
                     why(f, *f.src_point));
}

}  // namespace

std::string main_finding_text(const Finding& f) {
  std::string text = finding_sentence(f);
  if (f.sampled_cause && !text.empty())
    text += "; the samples show why: " + sampled_cause_text(*f.sampled_cause);
  if (f.replayed_gain && !text.empty()) {
    const double share = f.evidence_value("replayed_share");
    if (share < 0.01)
      text += fmt::format(
          "; replaying the trace with {} does not shorten the run: what makes it wait is not "
          "that imbalance",
          f.replay);
    else
      text += fmt::format("; replaying the trace with {} shortens the run by {} ({})", f.replay,
                          format_duration(*f.replayed_gain), percent(share));
  }
  return text;
}

std::string source_text(const std::string& file, std::int64_t line, std::int64_t end_line) {
  if (file.empty()) return "unknown site";
  const std::string name = std::filesystem::path(file).filename().string();
  if (line <= 0) return name;
  if (end_line > line) return fmt::format("{} ({}:{})", name, line, end_line);
  return fmt::format("{}:{}", name, line);
}

std::string src_point_text(const analysis::SrcPoint& p) {
  const auto kind = p.identity.kind;
  const std::string where = source_text(p.identity.file, p.identity.line);
  if (is(kind, SiteKind::omp_implicit_barrier) && p.identity.construct_kind != 0)
    return fmt::format("the implicit barrier of the {} at {}", kind_text(p.identity.construct_kind), where);
  if (is(kind, SiteKind::omp_join_barrier) && p.combined_construct)
    return fmt::format("the implicit barrier of the {} at {} (the end of its parallel region)",
                       kind_text(p.combined_construct->kind),
                       source_text(p.combined_construct->file, p.combined_construct->line));
  if (is(kind, SiteKind::omp_join_barrier))
    return fmt::format("the implicit barrier at the end of the parallel region at {}", where);
  if (is(kind, SiteKind::omp_critical)) return fmt::format("the critical section at {}", where);
  // MPI sites are named after the function called: "MPI_Recv at late_sender.c:25".
  if (format::is_mpi_kind(kind) && !p.identity.name.empty())
    return fmt::format("{} at {}", p.identity.name, where);
  return fmt::format("the {} at {}", kind_text(kind), where);
}

std::vector<std::string> main_findings_text(const std::vector<Finding>& findings) {
  std::vector<std::string> lines;
  for (const Finding& finding : findings) lines.push_back(main_finding_text(finding));
  return lines;
}

}  // namespace parperf::report
