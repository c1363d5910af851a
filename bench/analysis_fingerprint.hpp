// Fingerprints of the trace analysis's results, for `parperf-trace-analysis-bench --fingerprint`:
// a speed-up of match_communication or build_activity_graph must leave every result bit-identical,
// and these hashes say whether it did. Each is FNV-1a over the exact bits of every field (doubles by
// their representation, strings by their bytes, vectors in their order), so any change of a value,
// of an order or of a count shows.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/trace_analysis.hpp"

namespace parperf::bench {

class Fingerprint {
 public:
  std::uint64_t value() const { return hash_; }

  Fingerprint& add(std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      hash_ ^= (v >> (8 * b)) & 0xff;
      hash_ *= 0x100000001b3ull;
    }
    return *this;
  }
  Fingerprint& add(std::int64_t v) { return add(static_cast<std::uint64_t>(v)); }
  Fingerprint& add(std::uint32_t v) { return add(static_cast<std::uint64_t>(v)); }
  Fingerprint& add(std::int32_t v) { return add(static_cast<std::int64_t>(v)); }
  Fingerprint& add(std::uint8_t v) { return add(static_cast<std::uint64_t>(v)); }
  Fingerprint& add(bool v) { return add(static_cast<std::uint64_t>(v)); }
  Fingerprint& add(double v) { return add(std::bit_cast<std::uint64_t>(v)); }
  Fingerprint& add(const std::string& s) {
    add(static_cast<std::uint64_t>(s.size()));
    for (const char c : s) add(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
    return *this;
  }
  template <class T>
  Fingerprint& add(const std::optional<T>& v) {
    add(v.has_value());
    if (v) add(*v);
    return *this;
  }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

// `kind`: the call's site kind (a message's or transfer's; a collective's, for its members).
inline void add_side(Fingerprint& f, const analysis::CallSide& s, std::uint32_t kind) {
  f.add(s.rank).add(s.thread).add(s.site).add(kind).add(s.start_ns).add(s.end_ns).add(s.index);
}

// Every message, collective and one-sided transfer, in order, and the counts.
inline std::uint64_t communication_fingerprint(const analysis::Communication& c) {
  Fingerprint f;
  f.add(static_cast<std::uint64_t>(c.messages.size()));
  for (const analysis::Message& m : c.messages) {
    add_side(f, m.send, m.send_kind);
    add_side(f, m.receive, m.receive_kind);
    f.add(m.tag).add(m.bytes);
  }
  f.add(c.unmatched_sends).add(c.unmatched_receives).add(c.incomplete_collectives);
  f.add(static_cast<std::uint64_t>(c.collectives.size()));
  for (const analysis::CollectiveInstance& i : c.collectives) {
    f.add(i.members_hash).add(i.ordinal).add(i.sequence).add(i.kind).add(i.name).add(i.root).add(i.blocking);
    f.add(static_cast<std::uint64_t>(i.members.size()));
    for (const analysis::CallSide& s : i.members) add_side(f, s, i.kind);
  }
  f.add(static_cast<std::uint64_t>(c.one_sided.size()));
  for (const analysis::OneSidedTransfer& t : c.one_sided) {
    add_side(f, t.origin, t.kind);
    f.add(t.target).add(t.put).add(t.bytes);
  }
  return f.value();
}

inline void add_interval(Fingerprint& f, const analysis::GraphInterval& i) {
  f.add(i.name).add(i.kind).add(i.file).add(i.line);
}

// Every node (time, cost, bound_by, order position, location, segment, stack, operation), every edge,
// the locations, intervals, stacks, operation names and counts.
inline std::uint64_t graph_fingerprint(const analysis::ActivityGraph& g) {
  Fingerprint f;
  std::vector<std::uint32_t> position(g.nodes(), 0);
  std::uint32_t p = 0;
  for (const std::uint32_t k : g.order) position[k] = p++;
  f.add(static_cast<std::uint64_t>(g.nodes())).add(static_cast<std::uint64_t>(g.order.size()));
  for (std::uint32_t k = 0; k < g.nodes(); ++k)
    f.add(g.time[k])
        .add(g.cost(k))
        .add(g.bound_by(k))
        .add(position[k])
        .add(g.location_of(k))
        .add(static_cast<std::uint8_t>(g.segment[k]))
        .add(g.stack[k])
        .add(static_cast<std::uint32_t>(g.operation[k]))
        .add(g.edges_before(k));
  f.add(static_cast<std::uint64_t>(g.edges.size()));
  for (std::uint32_t i = 0; i < g.edges.size(); ++i) {
    const analysis::GraphEdge& e = g.edges[i];
    f.add(e.source).add(g.edge_target(i)).add(static_cast<std::uint8_t>(e.kind)).add(e.hops).add(e.bytes);
  }
  for (const analysis::GraphLocation& l : g.locations)
    f.add(l.rank).add(l.thread).add(l.worker).add(l.first).add(l.end);
  for (const analysis::GraphInterval& i : g.intervals) add_interval(f, i);
  for (const analysis::StackFrame& s : g.stacks) f.add(s.parent).add(s.interval).add(s.depth);
  for (const std::string& o : g.operations) f.add(o);
  f.add(g.start_ns).add(g.end_ns).add(g.events);
  const analysis::GraphCounts& c = g.linked;
  f.add(c.messages).add(c.collectives).add(c.openmp_barriers).add(c.forks).add(c.lock_handovers);
  f.add(c.shmem_barriers).add(c.shmem_waits);
  const analysis::GraphUnlinked& u = g.unlinked;
  f.add(u.sends).add(u.receives).add(u.incomplete_collectives).add(u.nonblocking_collectives);
  f.add(u.shmem_collectives).add(u.shmem_waits).add(u.outside_window).add(u.cycles_broken);
  // OpenMP task links only where there are tasks: a run without keeps its fingerprint from before them.
  if (c.task_creations + c.task_waits + u.task_pieces > 0)
    f.add(c.task_creations).add(c.task_waits).add(u.task_pieces);
  return f.value();
}

inline void add_factors(Fingerprint& f, const analysis::PopFactors& p) {
  f.add(p.parallel_efficiency).add(p.load_balance).add(p.communication_efficiency);
  f.add(p.serialisation_efficiency).add(p.transfer_efficiency);
}

inline std::uint64_t critical_path_fingerprint(const analysis::CriticalPath& c) {
  Fingerprint f;
  f.add(c.length_ns).add(c.location_changes).add(c.computation_ns).add(c.while_others_work_ns);
  f.add(c.while_others_wait_ns);
  for (const analysis::PathInterval& i : c.intervals) {
    f.add(i.time_ns).add(i.share).add(i.total_ns);
    add_interval(f, i.interval);
  }
  for (const analysis::PathLocation& l : c.locations) f.add(l.time_ns).add(l.share).add(l.rank).add(l.thread);
  for (const analysis::PathActivity& a : c.activities) f.add(a.time_ns).add(a.share).add(a.name);
  return f.value();
}

inline std::uint64_t pop_fingerprint(const analysis::Pop& p) {
  Fingerprint f;
  add_factors(f, p.overall);
  for (const auto* o : {&p.mpi, &p.openmp}) {
    f.add(o->has_value());
    if (*o) add_factors(f, **o);
  }
  f.add(p.run_time_ns)
      .add(p.ideal_time_ns)
      .add(p.ideal_mpi_time_ns)
      .add(p.max_useful_ns)
      .add(p.mean_useful_ns);
  return f.value();
}

inline std::uint64_t delay_fingerprint(const analysis::DelayCosts& d) {
  Fingerprint f;
  f.add(d.waiting_ns).add(d.charged_ns);
  for (const analysis::DelayCause& c : d.causes) {
    f.add(c.rank).add(c.thread).add(c.location).add(c.delay_ns).add(c.waiting).add(c.waits);
    add_interval(f, c.interval);
  }
  return f.value();
}

}  // namespace parperf::bench
