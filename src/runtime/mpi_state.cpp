// The runtime's side of the MPI collector: mpi_collector_abi.h's functions and the `mpi` section.
#include "runtime/mpi_state.hpp"

#include <atomic>
#include <cstring>

#include "runtime/code_sites.hpp"
#include "runtime/interval_stack.hpp"
#include "runtime/mpi_collector_abi.h"
#include "runtime/operation_stats.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {
namespace {

// A sampled collective: where it happened and when the rank arrived and left.
struct InstanceSample {
  std::uint64_t sequence;
  std::uint64_t arrive;
  std::uint64_t leave;  // 0: a non-blocking collective
  const ThreadState* thread;
  const Node* node;
  const parperf_site* site;
};

struct CommunicatorSlot {
  static constexpr std::uint32_t kSampleSize = 256;
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t size = 0;
  std::int64_t rank = 0;
  std::atomic<bool> ready{false};  // the fields above are set
  // Written by the thread calling the communicator's collectives (MPI orders them), read by the
  // profile writer: `sampled` is published after the entries it covers.
  Relaxed<std::uint64_t> collectives;
  Relaxed<std::uint64_t> stride{1};
  std::atomic<std::uint32_t> sampled{0};
  // Initialised, though every entry is written before it is read: gcc 12 drops the member
  // initialisers above from a constinit object with an uninitialised array member.
  InstanceSample samples[kSampleSize] = {};
};

constexpr std::int32_t kMaxCommunicators = 128;
constinit CommunicatorSlot g_communicators[kMaxCommunicators];
std::atomic<std::int32_t> g_communicator_count{0};

// Clock exchanges: two on a rank != 0 (init, finalize), two per other rank on rank 0.
struct ClockExchange {
  std::atomic<bool> present{false};
  std::int64_t rank = 0;
  std::uint64_t send = 0;
  std::uint64_t recv = 0;
  std::uint64_t master = 0;
  std::uint64_t round_trip = 0;
};
constexpr std::int64_t kMaxClockRanks = 1 << 20;
constinit ClockExchange g_own_exchanges[2];
ClockExchange* g_master_exchanges = nullptr;  // [phase * world_size + rank], on rank 0
std::int64_t g_master_exchange_ranks = 0;

std::atomic<bool> g_mpi_present{false};
std::int64_t g_world_rank = 0;
std::int64_t g_world_size = 1;
std::int32_t g_thread_level = 0;
std::uint64_t g_latency_ns = 0;
std::uint64_t g_bandwidth = 0;
char g_library[256] = "";

std::string_view view(const char* text) { return std::string_view(text, std::strlen(text)); }

void sample_instance(CommunicatorSlot& comm, const ThreadState& t, const Node* node, const parperf_site* site,
                     const parperf_mpi_call& call) {
  const std::uint64_t sequence = comm.collectives.get();
  comm.collectives.set(sequence + 1);
  std::uint64_t stride = comm.stride.get();
  if (sequence % stride != 0) return;
  std::uint32_t sampled = comm.sampled.load(std::memory_order_relaxed);
  if (sampled == CommunicatorSlot::kSampleSize) {
    // Full: keep every other kept instance. Hide the sample from the writer while it moves.
    comm.sampled.store(0, std::memory_order_release);
    stride *= 2;
    std::uint32_t kept = 0;
    for (std::uint32_t i = 0; i < sampled; ++i)
      if (comm.samples[i].sequence % stride == 0) comm.samples[kept++] = comm.samples[i];
    sampled = kept;
    comm.stride.set(stride);
    comm.sampled.store(sampled, std::memory_order_release);
    if (sequence % stride != 0) return;
  }
  comm.samples[sampled] =
      InstanceSample{sequence, call.start, call.no_departure ? 0 : call.end, &t, node, site};
  comm.sampled.store(sampled + 1, std::memory_order_release);
}

}  // namespace

void write_mpi_section(format::RecordWriter<FileSink>& w, const TickConverter& clock) noexcept {
  if (!g_mpi_present.load(std::memory_order_acquire)) return;
  format::MpiRecord mpi;
  mpi.world_rank = g_world_rank;
  mpi.world_size = g_world_size;
  mpi.thread_level = g_thread_level;
  mpi.latency_ns = g_latency_ns;
  mpi.bandwidth_bytes_per_s = g_bandwidth;
  mpi.library = view(g_library);
  for (const ClockExchange& e : g_own_exchanges) mpi.clock_count += e.present.load(std::memory_order_acquire);
  for (std::int64_t i = 0; i < 2 * g_master_exchange_ranks; ++i)
    mpi.clock_count += g_master_exchanges[i].present.load(std::memory_order_acquire);
  const std::int32_t communicators = g_communicator_count.load(std::memory_order_acquire);
  mpi.communicator_count = static_cast<std::uint32_t>(communicators);

  w.begin_section(format::SectionType::mpi);
  w.record(mpi);
  std::uint32_t written_clocks = 0;
  auto write_exchange = [&](const ClockExchange& e, std::uint32_t phase) {
    if (!e.present.load(std::memory_order_acquire) || written_clocks == mpi.clock_count) return;
    format::ClockSyncRecord r;
    r.phase = phase;
    r.rank = e.rank;
    r.send_ns = e.send ? clock.since_origin_ns(e.send) : 0;
    r.recv_ns = e.recv ? clock.since_origin_ns(e.recv) : 0;
    r.master_ns = e.master ? clock.since_origin_ns(e.master) : 0;
    r.round_trip_ns = clock.duration_ns(e.round_trip);
    w.record(r);
    ++written_clocks;
  };
  for (std::uint32_t phase = 0; phase < 2; ++phase) write_exchange(g_own_exchanges[phase], phase);
  for (std::uint32_t phase = 0; phase < 2; ++phase)
    for (std::int64_t rank = 0; rank < g_master_exchange_ranks; ++rank)
      write_exchange(g_master_exchanges[phase * g_master_exchange_ranks + rank], phase);
  // An exchange that appeared while writing was not counted: pad never, the count is what was read.
  for (std::int32_t id = 0; id < communicators; ++id) {
    const CommunicatorSlot& comm = g_communicators[id];
    const std::uint32_t sampled = comm.sampled.load(std::memory_order_acquire);
    format::CommunicatorRecord r;
    r.id = static_cast<std::uint32_t>(id);
    if (!comm.ready.load(std::memory_order_acquire)) {  // being registered right now: an empty record
      r.size = 1;
      w.record(r);
      continue;
    }
    r.size = comm.size;
    r.rank = comm.rank;
    r.members_hash = comm.members_hash;
    r.ordinal = comm.ordinal;
    r.instance_count = sampled;
    r.collectives = comm.collectives.get();
    r.stride = comm.stride.get();
    w.record(r);
    for (std::uint32_t i = 0; i < sampled; ++i) {
      const InstanceSample& s = comm.samples[i];
      format::CollectiveInstanceRecord x;
      x.sequence = s.sequence;
      x.arrive_ns = clock.since_origin_ns(s.arrive);
      x.leave_ns = s.leave ? clock.since_origin_ns(s.leave) : 0;
      x.thread = s.thread->index;
      x.node = s.node ? s.node->written_index : format::kNoParent;
      x.site = s.site->id_;
      w.record(x);
    }
  }
  w.end_section();
}

}  // namespace parperf::runtime

using namespace parperf::runtime;

extern "C" {

int parperf_mpi_active(void) { return ensure_initialised() && lifecycle() == Lifecycle::active ? 1 : 0; }

uint64_t parperf_mpi_now(void) { return now_ticks(); }

double parperf_mpi_ticks_per_ns(void) { return estimated_ticks_per_ns(); }

void parperf_mpi_record(const parperf_mpi_call* call) {
  ThreadState* t = current_thread();
  if (!t || !recording() || t->unrecorded) return;
  CodeSite* code =
      named_code_site(call->caller, static_cast<parperf::format::SiteKind>(call->kind), call->name);
  if (!code) return;
  parperf_site* site = &code->site;
  if ((__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(site);
  Node* node = current_node(*t);
  OperationStats* stats = operation_stats_for(*t, *node, site);
  if (!stats) return;
  const std::uint64_t duration = ticks_between(call->start, call->end);
  stats->record(duration, call->real_sync < duration ? call->real_sync : duration, 0, call->bytes);
  stats->record_partner(call->partner);
  if (call->overlap) stats->overlap_ticks.add(call->overlap);
  stats->last_begin_ticks.set(call->start);
  stats->last_end_ticks.set(call->end);
  if (call->communicator >= 0 && call->communicator < g_communicator_count.load(std::memory_order_acquire))
    sample_instance(g_communicators[call->communicator], *t, node, site, *call);
}

void parperf_mpi_set_process(int64_t world_rank, int64_t world_size, int32_t thread_level,
                             const char* library) {
  g_world_rank = world_rank;
  g_world_size = world_size;
  g_thread_level = thread_level;
  std::strncpy(g_library, library ? library : "", sizeof g_library - 1);
  // The profile is named and described by the MPI rank from now on.
  state_detail::config.rank = world_rank;
  state_detail::config.world_size = world_size;
  if (world_rank == 0 && world_size > 1 && world_size <= kMaxClockRanks && !g_master_exchanges) {
    g_master_exchanges = static_cast<ClockExchange*>(allocate_private(
        sizeof(ClockExchange) * 2 * static_cast<std::size_t>(world_size), alignof(ClockExchange)));
    if (g_master_exchanges) g_master_exchange_ranks = world_size;
  }
  g_mpi_present.store(true, std::memory_order_release);
}

void parperf_mpi_set_network(uint64_t latency_ns, uint64_t bandwidth_bytes_per_s) {
  g_latency_ns = latency_ns;
  g_bandwidth = bandwidth_bytes_per_s;
}

void parperf_mpi_clock_exchange(uint32_t phase, int64_t rank, uint64_t send_ticks, uint64_t recv_ticks,
                                uint64_t master_ticks, uint64_t round_trip_ticks) {
  if (phase > 1) return;
  ClockExchange* e = nullptr;
  if (master_ticks != 0 && g_master_exchanges && rank >= 0 && rank < g_master_exchange_ranks)
    e = &g_master_exchanges[phase * g_master_exchange_ranks + rank];
  else if (master_ticks == 0)
    e = &g_own_exchanges[phase];
  if (!e) return;
  e->rank = rank;
  e->send = send_ticks;
  e->recv = recv_ticks;
  e->master = master_ticks;
  e->round_trip = round_trip_ticks;
  e->present.store(true, std::memory_order_release);
}

int32_t parperf_mpi_add_communicator(uint64_t members_hash, uint32_t ordinal, uint32_t size, int64_t rank) {
  // Creation is collective and rare; concurrent creations on different threads take distinct slots.
  const std::int32_t id = g_communicator_count.load(std::memory_order_relaxed);
  if (id >= kMaxCommunicators) return -1;
  std::int32_t claimed = id;
  while (!g_communicator_count.compare_exchange_weak(claimed, claimed + 1, std::memory_order_acq_rel)) {
    if (claimed >= kMaxCommunicators) return -1;
  }
  CommunicatorSlot& comm = g_communicators[claimed];
  comm.members_hash = members_hash;
  comm.ordinal = ordinal;
  comm.size = size;
  comm.rank = rank;
  comm.ready.store(true, std::memory_order_release);
  return claimed;
}

void parperf_mpi_abort(int error_code) {
  finish_run(static_cast<int>(parperf::format::EndReason::mpi_abort), error_code & 0xffff);
}

}  // extern "C"
