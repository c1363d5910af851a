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

// Room for three times the samples of kSamplesBetweenTakes periods (the clock that asks for them
// may be a POSIX timer, late by a scheduler's tick): with 8 KiB of stack a sample, 64 pages, 260
// KiB of locked memory a thread (perf_event_mlock_kb, 516 KiB, for the first threads of an
// unprivileged user, RLIMIT_MEMLOCK beyond it, 8 MiB on current kernels); a thread beyond gets a
// signal a sample.
constexpr std::uint64_t kSamplesHeld = 3 * kSamplesBetweenTakes;

#if defined(__x86_64__)
// perf's x86 register numbers (asm/perf_regs.h): AX BX CX DX SI DI BP SP IP, then R8 to R15. A
// sample holds them in that order.
constexpr std::uint64_t kRegisterMask = 0x1ffull | (0xffull << 16);
constexpr int kRegisterCount = 17;
constexpr int kGreg[kRegisterCount] = {REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI,
                                       REG_RBP, REG_RSP, REG_RIP, REG_R8,  REG_R9,  REG_R10,
                                       REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
#endif

// The largest sample record with `stack_bytes` of stack: its header, time, registers' ABI,
// registers, the copy's size, the copy and its used size.
constexpr std::size_t max_record(std::uint32_t stack_bytes) {
  return 8 + 8 + 8 + 8 * 17 + 8 + stack_bytes + 8;
}

std::uint64_t word_at(const unsigned char* at) {
  std::uint64_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// The sample in `record` (a whole PERF_RECORD_SAMPLE) into `sample`, its stack read where it lies
// in the record; false for a record that holds no user registers (the kernel could not take them).
bool read_sample(const unsigned char* record, std::size_t size, BufferedSample& sample) {
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
  for (const int greg : kGreg) sample.context.uc_mcontext.gregs[greg] = static_cast<greg_t>(next());
  const std::uint64_t copied = next();
  if (at + copied + 8 > end) return false;
  const auto bytes = reinterpret_cast<std::uintptr_t>(at);
  at += copied;
  const std::uint64_t used = copied ? next() & ~std::uint64_t{7} : 0;
  const auto sp = static_cast<std::uintptr_t>(sample.context.uc_mcontext.gregs[REG_RSP]);
  if (used > copied || sp > ~std::uintptr_t{0} - used) return false;
  // The walk reads the stack's words at the thread's own addresses, through the offset to the copy.
  sample.stack = {sp, sp + used, false, static_cast<std::intptr_t>(bytes - sp)};
  return true;
#else
  (void)record, (void)size, (void)sample;
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

bool open_sample_buffer(PerfSampleBuffer& buffer, std::uint64_t period_ns,
                        std::uint32_t stack_bytes) noexcept {
#if defined(__x86_64__)
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes &= ~7u;  // the kernel copies whole words
  if (stack_bytes < kLeastStackBytes || stack_bytes > kMostStackBytes) return false;
  std::uint64_t data_bytes = page;
  while (data_bytes < kSamplesHeld * max_record(stack_bytes)) data_bytes *= 2;
  const std::size_t scratch_bytes = (max_record(stack_bytes) + page - 1) / page * page;
  BufferedSampleFormat format;
  format.registers = kRegisterMask;
  format.stack_bytes = stack_bytes;
  const int fd = open_buffered_cpu_clock(period_ns, format);
  if (fd < 0) return false;
  const std::size_t bytes = page + data_bytes;
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  auto* scratch = static_cast<unsigned char*>(allocate_private(scratch_bytes, 4096));
  if (mapping == MAP_FAILED || !scratch) {
    if (mapping != MAP_FAILED) munmap(mapping, bytes);
    release_private(scratch, scratch_bytes);
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
  buffer.record_bytes = scratch_bytes;
  buffer.fd = fd;
  return true;
#else
  (void)buffer, (void)period_ns, (void)stack_bytes;
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
    if (first < header.size &&
        header.size <= buffer.record_bytes) {  // wraps: made whole in the scratch record
      std::memcpy(buffer.record, buffer.data + start, first);
      std::memcpy(buffer.record + first, buffer.data, header.size - first);
      record = buffer.record;
    }
    if (header.type == PERF_RECORD_SAMPLE && header.size <= buffer.record_bytes &&
        (record == buffer.record || first >= header.size) && read_sample(record, header.size, sample))
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
  release_private(buffer.record, buffer.record_bytes);
  buffer.record = nullptr;
}

}  // namespace parperf::runtime
