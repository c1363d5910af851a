// Hand-built profiles of MPI runs for the analysis and report tests: each test states the few
// sites, nodes, operations, clock exchanges and collective instances its expected values follow from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/profile.hpp"
#include "format/records.hpp"
#include "unit/profile_values.hpp"

namespace parperf::test {

inline constexpr std::uint64_t kMs = 1'000'000;  // ns
inline constexpr std::uint64_t kS = 1'000'000'000;

inline constexpr std::uint32_t kind(format::SiteKind k) { return static_cast<std::uint32_t>(k); }

// One process of an MPI run. Site 1 is the program; every thread starts with its root node.
class MpiProfile {
 public:
  MpiProfile(std::int64_t rank, std::int64_t world_size) {
    p_.process.rank = rank;
    p_.process.world_size = world_size;
    p_.process.ticks_per_second = kS;
    p_.process.hostname = "node";
    p_.sites.push_back(parperf::test::make_site(1, 0, 0, "app", ""));
    p_.has_mpi = true;
    p_.mpi.world_rank = rank;
    p_.mpi.world_size = world_size;
    p_.mpi.library = "Test MPI 1.0";
    p_.mpi.latency_ns = 1'500;
    p_.mpi.bandwidth_bytes_per_s = 5'000'000'000;
  }

  // A thread whose program node lasted `ns`; returns its index.
  std::uint32_t thread(std::uint64_t ns, format::ThreadKind kind = format::ThreadKind::initial) {
    format::Thread t;
    t.index = static_cast<std::uint32_t>(p_.threads.size());
    t.kind = kind;
    format::Node root;
    root.site = 1;
    root.count = ns > 0 ? 1 : 0;
    root.sum_ns = root.min_ns = root.max_ns = ns;
    root.set_flag(format::kNodeContext, ns == 0);
    t.nodes.push_back(root);
    p_.threads.push_back(t);
    p_.process.thread_count = static_cast<std::uint32_t>(p_.threads.size());
    return t.index;
  }

  // A site; MPI sites are named after the function, at a file and line as the symbolizer gives them.
  std::uint32_t site(std::uint32_t kind, const std::string& name, const std::string& file = "app.c",
                     std::int64_t line = 0) {
    const auto id = static_cast<std::uint32_t>(p_.sites.size() + 1);
    p_.sites.push_back(parperf::test::make_site(id, kind, line, name, file));
    return id;
  }

  // A child node of `parent` in thread `t`, entered once for `ns`; returns its index.
  std::uint32_t node(std::uint32_t t, std::uint32_t parent, std::uint32_t site, std::uint64_t ns) {
    format::Node n;
    n.parent = parent;
    n.site = site;
    n.count = ns > 0 ? 1 : 0;
    n.sum_ns = n.min_ns = n.max_ns = ns;
    n.set_flag(format::kNodeContext, ns == 0);
    auto& nodes = p_.threads.at(t).nodes;
    nodes.push_back(n);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }

  // Operation statistics of `site` in node `n` of thread `t`: `count` calls lasting `sum_ns`, of
  // which `wait_ns` waiting for the partner.
  format::OperationStats& op(std::uint32_t t, std::uint32_t n, std::uint32_t site, std::uint64_t count,
                             std::uint64_t sum_ns, std::uint64_t wait_ns = 0) {
    format::OperationStats o;
    o.site = site;
    o.count = count;
    o.sum_ns = sum_ns;
    o.min_ns = count ? sum_ns / count : 0;
    o.max_ns = o.min_ns;
    o.wait_ns = wait_ns;
    o.wait_max_ns = wait_ns;
    auto& ops = p_.threads.at(t).nodes.at(n).operations;
    ops.push_back(o);
    return ops.back();
  }

  // This rank's side of a clock exchange (rank != 0), or rank 0's side for rank `other`.
  void clock(format::ClockPhase phase, std::uint64_t send_ns, std::uint64_t recv_ns) {
    p_.mpi.clock.push_back(
        parperf::test::make_clock_sync(phase, p_.process.rank, send_ns, recv_ns, 0, recv_ns - send_ns));
  }
  void master_clock(format::ClockPhase phase, std::int64_t other, std::uint64_t master_ns) {
    p_.mpi.clock.push_back(parperf::test::make_clock_sync(phase, other, 0, 0, master_ns, 1'000));
  }

  // A communicator of `size` ranks, this rank being `rank` in it; returns its position.
  std::size_t communicator(std::uint64_t members_hash, std::uint32_t ordinal, std::uint32_t size,
                           std::int64_t rank, std::uint64_t collectives, std::uint64_t stride = 1) {
    const auto id = static_cast<std::uint32_t>(100 + p_.mpi.communicators.size() * 7);  // local, not dense
    p_.mpi.communicators.push_back(
        parperf::test::make_communicator(id, size, rank, members_hash, ordinal, collectives, stride));
    return p_.mpi.communicators.size() - 1;
  }
  void instance(std::size_t communicator, std::uint64_t sequence, std::uint64_t arrive_ns,
                std::uint64_t leave_ns, std::uint32_t site, std::uint32_t thread = 0,
                std::uint32_t node = 0) {
    p_.mpi.communicators.at(communicator)
        .instances.push_back(format::CollectiveInstance{sequence, arrive_ns, leave_ns, thread, node, site});
  }

  format::Profile& profile() { return p_; }

 private:
  format::Profile p_;
};

}  // namespace parperf::test
