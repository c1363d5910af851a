#include "runtime/collector_registry.hpp"

#include <atomic>
#include <cstring>

namespace parperf::runtime {
namespace {

// A slot is claimed by incrementing the count, filled, then published by `ready`: a writer running
// meanwhile skips the slot it cannot read yet.
struct Section {
  std::uint32_t type = 0;
  parperf_section_callback write = nullptr;
  void* context = nullptr;
  std::atomic<bool> ready{false};
};

constexpr std::uint32_t kMaxSections = 8;
constinit Section g_sections[kMaxSections];
constinit std::atomic<std::uint32_t> g_section_count{0};

constexpr std::uint32_t kMaxDescribers = 8;
constinit std::atomic<ProcessDescriber> g_describers[kMaxDescribers];
constinit std::atomic<std::uint32_t> g_describer_count{0};

constexpr std::uint32_t kMaxThreadLibraryLists = 8;
constinit std::atomic<const char* const*> g_thread_libraries[kMaxThreadLibraryLists];
constinit std::atomic<std::uint32_t> g_thread_library_count{0};

// Claims the next of `capacity` slots; false when the table is full.
bool claim(std::atomic<std::uint32_t>& count, std::uint32_t capacity, std::uint32_t& slot) {
  slot = count.load(std::memory_order_relaxed);
  do {
    if (slot >= capacity) return false;
  } while (!count.compare_exchange_weak(slot, slot + 1, std::memory_order_acq_rel));
  return true;
}

std::uint32_t claimed(const std::atomic<std::uint32_t>& count, std::uint32_t capacity) {
  const std::uint32_t n = count.load(std::memory_order_acquire);
  return n < capacity ? n : capacity;
}

}  // namespace

bool register_collector_section(std::uint32_t section_type, parperf_section_callback write,
                                void* context) noexcept {
  std::uint32_t slot = 0;
  if (!write || !claim(g_section_count, kMaxSections, slot)) return false;
  Section& s = g_sections[slot];
  s.type = section_type;
  s.write = write;
  s.context = context;
  s.ready.store(true, std::memory_order_release);
  return true;
}

bool register_process_describer(ProcessDescriber describe) noexcept {
  std::uint32_t slot = 0;
  if (!describe || !claim(g_describer_count, kMaxDescribers, slot)) return false;
  g_describers[slot].store(describe, std::memory_order_release);
  return true;
}

bool register_foreign_thread_libraries(const char* const* prefixes) noexcept {
  std::uint32_t slot = 0;
  if (!prefixes || !claim(g_thread_library_count, kMaxThreadLibraryLists, slot)) return false;
  g_thread_libraries[slot].store(prefixes, std::memory_order_release);
  return true;
}

void write_collector_sections(format::RecordWriter<FileSink>& records, const TickConverter& clock) noexcept {
  const std::uint32_t count = claimed(g_section_count, kMaxSections);
  for (std::uint32_t i = 0; i < count; ++i) {
    const Section& s = g_sections[i];
    if (!s.ready.load(std::memory_order_acquire)) continue;
    parperf_section_writer writer{&records, &clock};
    records.begin_section(s.type);
    s.write(&writer, s.context);
    records.end_section();
  }
}

void describe_process(format::ProcessRecord& process) noexcept {
  const std::uint32_t count = claimed(g_describer_count, kMaxDescribers);
  for (std::uint32_t i = 0; i < count; ++i)
    if (const ProcessDescriber describe = g_describers[i].load(std::memory_order_acquire)) describe(process);
}

bool is_foreign_thread_library(const char* library) noexcept {
  const std::uint32_t count = claimed(g_thread_library_count, kMaxThreadLibraryLists);
  for (std::uint32_t i = 0; i < count; ++i) {
    const char* const* prefixes = g_thread_libraries[i].load(std::memory_order_acquire);
    for (; prefixes && *prefixes; ++prefixes)
      if (std::strncmp(library, *prefixes, std::strlen(*prefixes)) == 0) return true;
  }
  return false;
}

}  // namespace parperf::runtime
