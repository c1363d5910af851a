#include "report/mpi_json.hpp"

#include <string>

#include "report/interval_kind.hpp"
#include "report/json_optional.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

// MPI_Init_thread's `provided`, by the name of its constant.
json thread_level_key(std::int32_t level) {
  switch (level) {
    case 0:
      return "single";
    case 1:
      return "funneled";
    case 2:
      return "serialized";
    case 3:
      return "multiple";
    default:
      return std::to_string(level);
  }
}

json partner_value(std::int64_t partner) {
  return partner == format::kNoPartner ? json(nullptr) : json(partner);
}

}  // namespace

json mpi_run_json(const std::optional<MpiSummary>& mpi) {
  if (!mpi) return nullptr;
  json clock = json::array();
  for (const ClockLine& c : mpi->clock)
    clock.push_back({{"rank", c.rank},
                     {"corrected", c.corrected},
                     {"offset_init", optional_value(c.offset_init)},
                     {"offset_finalize", optional_value(c.offset_finalize)},
                     {"drift", c.drift},
                     {"offset_init_error", optional_value(c.offset_init_error)},
                     {"offset_finalize_error", optional_value(c.offset_finalize_error)},
                     {"drift_error", c.drift_error}});
  return {{"library", mpi->library},
          {"latency", mpi->latency},
          {"bandwidth", mpi->bandwidth},
          {"thread_level", thread_level_key(mpi->thread_level)},
          {"clock", std::move(clock)}};
}

json communication_classes_json(const std::vector<analysis::CommunicationClassFigures>& rows) {
  json out = json::array();
  for (const analysis::CommunicationClassFigures& r : rows)
    out.push_back({{"class", analysis::mpi_class_key(r.mpi_class)},
                   {"count", r.count},
                   {"time", r.time},
                   {"real_sync", r.real_sync},
                   {"starts", r.starts},
                   {"synchronization", r.synchronization},
                   {"time_variation", r.time_variation},
                   {"overlap", r.overlap},
                   {"bytes", r.bytes}});
  return out;
}

json mpi_calls_json(const std::vector<analysis::MpiCallFigures>& calls) {
  json out = json::array();
  for (const analysis::MpiCallFigures& c : calls)
    out.push_back({{"name", c.identity.name},
                   {"kind", kind_key(c.identity.kind)},
                   {"class", analysis::mpi_class_key(c.mpi_class)},
                   {"file", c.identity.file},
                   {"line", c.identity.line},
                   {"rank", c.rank},
                   {"count", c.count},
                   {"time", c.time},
                   {"real_sync", c.real_sync},
                   {"starts", c.starts},
                   {"bytes", c.bytes},
                   {"overlap", c.overlap},
                   {"synchronization", c.synchronization},
                   {"time_variation", c.time_variation},
                   {"partner_min", partner_value(c.partner_min)},
                   {"partner_max", partner_value(c.partner_max)},
                   {"partners", c.partners()},
                   {"last_begin", optional_value(c.last_begin)},
                   {"last_end", optional_value(c.last_end)}});
  return out;
}

json mpi_json(const std::vector<analysis::CommunicatorMatch>& communicators) {
  json collectives = json::array();
  for (const analysis::CommunicatorMatch& c : communicators) {
    json instances = json::array();
    for (const analysis::MatchedInstance& i : c.instances) {
      json arrivals = json::array();
      for (const analysis::CollectiveArrival& a : i.arrivals)
        arrivals.push_back({{"rank", a.rank}, {"arrive", a.arrive}, {"leave", optional_value(a.leave)}});
      instances.push_back({{"sequence", i.sequence}, {"name", i.name}, {"arrivals", std::move(arrivals)}});
    }
    collectives.push_back(
        {{"communicator", {{"size", c.size}, {"ordinal", c.ordinal}, {"members_hash", c.members_hash}}},
         {"collectives", c.collectives},
         {"sampled", c.sampled},
         {"matched", c.matched},
         {"instances", std::move(instances)}});
  }
  return {{"collectives", std::move(collectives)}};
}

}  // namespace parperf::report
