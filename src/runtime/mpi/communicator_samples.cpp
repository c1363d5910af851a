#include "runtime/mpi/communicator_samples.hpp"

#include <atomic>

#include "format/records.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::mpi {
namespace {

using runtime::Relaxed;

// A sampled collective: where it happened and when the rank arrived and left.
struct InstanceSample {
  std::uint64_t sequence;
  std::uint64_t arrive;
  std::uint64_t leave;  // 0: a non-blocking collective
  parperf_position where;
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

}  // namespace

std::int32_t add_communicator(std::uint64_t members_hash, std::uint32_t ordinal, std::uint32_t size,
                              std::int64_t rank) noexcept {
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

void sample_collective(std::int32_t slot, const parperf_position& where, std::uint64_t arrive,
                       std::uint64_t leave) noexcept {
  if (slot < 0 || slot >= g_communicator_count.load(std::memory_order_acquire)) return;
  CommunicatorSlot& comm = g_communicators[slot];
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
  comm.samples[sampled] = InstanceSample{sequence, arrive, leave, where};
  comm.sampled.store(sampled + 1, std::memory_order_release);
}

std::uint64_t next_collective_sequence(std::int32_t slot) noexcept {
  if (slot < 0 || slot >= g_communicator_count.load(std::memory_order_acquire)) return 0;
  return g_communicators[slot].collectives.get();
}

std::uint32_t communicator_count() noexcept {
  return static_cast<std::uint32_t>(g_communicator_count.load(std::memory_order_acquire));
}

void write_communicators(runtime::SectionRecords& records, const parperf_section_writer* writer,
                         std::uint32_t count) noexcept {
  for (std::uint32_t id = 0; id < count; ++id) {
    const CommunicatorSlot& comm = g_communicators[id];
    const std::uint32_t sampled = comm.sampled.load(std::memory_order_acquire);
    format::CommunicatorRecord r;
    r.id = id;
    if (!comm.ready.load(std::memory_order_acquire)) {  // being registered right now: an empty record
      r.size = 1;
      records.record(r);
      continue;
    }
    r.size = comm.size;
    r.rank = comm.rank;
    r.members_hash = comm.members_hash;
    r.ordinal = comm.ordinal;
    r.instance_count = sampled;
    r.collectives = comm.collectives.get();
    r.stride = comm.stride.get();
    records.record(r);
    for (std::uint32_t i = 0; i < sampled; ++i) {
      const InstanceSample& s = comm.samples[i];
      const parperf_written_position at = parperf_section_position(writer, &s.where);
      format::CollectiveInstanceRecord x;
      x.sequence = s.sequence;
      x.arrive_ns = parperf_section_time_ns(writer, s.arrive);
      x.leave_ns = s.leave ? parperf_section_time_ns(writer, s.leave) : 0;
      x.thread = at.thread;
      x.node = at.node;
      x.site = at.site;
      records.record(x);
    }
  }
}

}  // namespace parperf::mpi
