#include "runtime/perf_sample_buffer.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "runtime/perf_event_clock.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::runtime {
namespace {

// 16 KiB of stack a sample: twice perf's default, the frames of communication libraries' progress
// loops and parallel runtimes' barriers above a program's own fit in it.
constexpr std::uint32_t kStackBytes = 16384;
// 128 pages of samples (31): room for the samples of kSamplesBetweenTakes periods and as many
// again (the clock that asks for them may be a POSIX timer, late by a scheduler's tick). 516 KiB
// of locked memory a thread: perf_event_mlock_kb for the first thread of an unprivileged user,
// RLIMIT_MEMLOCK beyond it (8 MiB on current kernels); a thread beyond gets a signal a sample.
constexpr std::uint64_t kDataPages = 128;

#if defined(__x86_64__)
// perf's x86 register numbers (asm/perf_regs.h): AX BX CX DX SI DI BP SP IP, then R8 to R15. A
// sample holds them in that order.
constexpr std::uint64_t kRegisterMask = 0x1ffull | (0xffull << 16);
constexpr int kRegisterCount = 17;
constexpr int kGreg[kRegisterCount] = {REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI,
                                       REG_RBP, REG_RSP, REG_RIP, REG_R8,  REG_R9,  REG_R10,
                                       REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
#endif

// The largest sample record: its header, time, registers' ABI, registers, the copy's size, the copy
// and its used size.
constexpr std::size_t kMaxRecord = 8 + 8 + 8 + 8 * 17 + 8 + kStackBytes + 8;
constexpr std::size_t kScratchBytes = 64 * 1024;  // the record, then the stack: a mapping of its own
static_assert(kMaxRecord + kStackBytes + 16 <= kScratchBytes);

std::uint64_t word_at(const unsigned char* at) {
  std::uint64_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// The sample in `record` (a whole PERF_RECORD_SAMPLE) into `sample`, its stack moved to `stack`;
// false for a record that holds no user registers (a sample the kernel could not take in user space).
bool read_sample(const unsigned char* record, std::size_t size, unsigned char* stack,
                 BufferedSample& sample) {
#if defined(__x86_64__)
  const unsigned char* at = record + sizeof(perf_event_header);
  const unsigned char* end = record + size;
  const auto next = [&]() -> std::uint64_t {
    if (at + 8 > end) return 0;
    const std::uint64_t value = word_at(at);
    at += 8;
    return value;
  };
  sample.time_ns = next();
  if (next() == PERF_SAMPLE_REGS_ABI_NONE) return false;
  std::uint64_t registers[kRegisterCount];
  for (std::uint64_t& value : registers) value = next();
  const std::uint64_t copied = next();
  if (copied > kStackBytes || at + copied + 8 > end) return false;
  const unsigned char* bytes = at;
  at += copied;
  const std::uint64_t used = copied ? next() & ~std::uint64_t{7} : 0;
  const std::uint64_t sp = registers[7];
  const auto base = reinterpret_cast<std::uintptr_t>(stack);
  // Every value that pointed into the copied range points into the thread's copy instead.
  const auto moved = [&](std::uint64_t value) {
    return value >= sp && value - sp < used ? value - sp + base : value;
  };
  std::memcpy(stack, bytes, used);
  for (std::uint64_t offset = 0; offset < used; offset += 8) {
    std::uint64_t value;
    std::memcpy(&value, stack + offset, 8);
    if (value >= sp && value - sp < used) {
      value = value - sp + base;
      std::memcpy(stack + offset, &value, 8);
    }
  }
  for (int i = 0; i < kRegisterCount; ++i)
    sample.context.uc_mcontext.gregs[kGreg[i]] = static_cast<greg_t>(moved(registers[i]));
  sample.stack = {base, base + used, false};
  return true;
#else
  (void)record, (void)size, (void)stack, (void)sample;
  return false;
#endif
}

}  // namespace

bool buffered_sampling_supported() noexcept {
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

bool open_sample_buffer(PerfSampleBuffer& buffer, std::uint64_t period_ns) noexcept {
#if defined(__x86_64__)
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::uint64_t data_bytes = kDataPages * page;
  BufferedSampleFormat format;
  format.registers = kRegisterMask;
  format.stack_bytes = kStackBytes;
  const int fd = open_buffered_cpu_clock(period_ns, format);
  if (fd < 0) return false;
  const std::size_t bytes = page + data_bytes;
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  auto* scratch = static_cast<unsigned char*>(allocate_private(kScratchBytes, 4096));
  if (mapping == MAP_FAILED || !scratch) {
    if (mapping != MAP_FAILED) munmap(mapping, bytes);
    release_private(scratch, kScratchBytes);
    close_cpu_clock(fd);
    return false;
  }
  buffer.mapping = mapping;
  buffer.mapping_bytes = bytes;
  const auto* control = static_cast<const perf_event_mmap_page*>(mapping);
  // Kernels since 4.1 say where the data lies; before, right after the control page.
  const std::uint64_t offset = control->data_offset ? control->data_offset : page;
  buffer.data = static_cast<const unsigned char*>(mapping) + offset;
  buffer.data_bytes = control->data_size ? control->data_size : data_bytes;
  buffer.head = reinterpret_cast<const std::uint64_t*>(&control->data_head);
  buffer.tail = 0;
  buffer.record = scratch;
  buffer.stack = scratch + ((kMaxRecord + 15) & ~std::size_t{15});
  buffer.fd = fd;
  return true;
#else
  (void)buffer, (void)period_ns;
  return false;
#endif
}

bool enable_sample_buffer(PerfSampleBuffer& buffer) noexcept { return enable_cpu_clock(buffer.fd); }

void take_samples(PerfSampleBuffer& buffer, void (*each)(const BufferedSample&, void*),
                  void* context) noexcept {
  if (!buffer.mapping) return;
  auto* control = static_cast<perf_event_mmap_page*>(buffer.mapping);
  const std::uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
  const std::uint64_t mask = buffer.data_bytes - 1;
  BufferedSample sample;
  std::memset(&sample.context, 0, sizeof sample.context);
  while (buffer.tail + sizeof(perf_event_header) <= head) {
    perf_event_header header;
    const std::uint64_t start = buffer.tail & mask;
    const std::uint64_t first = buffer.data_bytes - start;  // bytes before the buffer's end
    if (first >= sizeof header) {
      std::memcpy(&header, buffer.data + start, sizeof header);
    } else {
      std::memcpy(&header, buffer.data + start, first);
      std::memcpy(reinterpret_cast<unsigned char*>(&header) + first, buffer.data, sizeof header - first);
    }
    if (header.size < sizeof header || buffer.tail + header.size > head) break;  // not the kernel's: stop
    const unsigned char* record = buffer.data + start;
    if (first < header.size && header.size <= kMaxRecord) {  // wraps: made whole in the scratch record
      std::memcpy(buffer.record, buffer.data + start, first);
      std::memcpy(buffer.record + first, buffer.data, header.size - first);
      record = buffer.record;
    }
    if (header.type == PERF_RECORD_SAMPLE && header.size <= kMaxRecord &&
        (record == buffer.record || first >= header.size) &&
        read_sample(record, header.size, buffer.stack, sample))
      each(sample, context);
    else if (header.type == PERF_RECORD_LOST && header.size >= sizeof header + 16)
      buffer.lost += word_at(record + sizeof header + 8);
    buffer.tail += header.size;
  }
  __atomic_store_n(&control->data_tail, buffer.tail, __ATOMIC_RELEASE);
}

void close_sample_buffer(PerfSampleBuffer& buffer) noexcept {
  if (buffer.fd >= 0) close_cpu_clock(buffer.fd);
  buffer.fd = -1;
  void* mapping = buffer.mapping;
  buffer.mapping = nullptr;  // before it goes: a late signal's handler finds nothing to take
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (mapping) munmap(mapping, buffer.mapping_bytes);
  release_private(buffer.record, kScratchBytes);
  buffer.record = buffer.stack = nullptr;
}

}  // namespace parperf::runtime
