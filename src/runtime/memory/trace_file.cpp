#include "runtime/memory/trace_file.hpp"

#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "format/job_environment.hpp"
#include "format/record_writer.hpp"
#include "runtime/file_sink.hpp"
#include "runtime/memory/sampling.hpp"

namespace parperf::memory {
namespace {

using Writer = format::RecordWriter<runtime::FileSink>;

// The code of the loaded modules: the file maps pcs to (module, module-relative address).
struct Module {
  std::uintptr_t base = 0;  // load bias
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  char path[512] = {};
};
constexpr int kMaxModules = 256;
Module g_modules[kMaxModules];
int g_module_count = 0;

// Holds a whole access section (64 Ki records of 24 bytes and its framing), so that the section's
// length is patched in memory and the file is written strictly front to back: it may be a pipe to
// `parperf locality` reading it as it comes (PARPERF_MEM_TRACE_FD).
std::uint8_t g_buffer[std::size_t{2} << 20];
int g_fd = -1;
bool g_to_pipe = false;   // PARPERF_MEM_TRACE_FD
bool g_in_place = false;  // no temporary name to rename: a pipe, or a path naming a device or a FIFO
bool g_failed = false;
runtime::FileSink* g_sink = nullptr;
Writer* g_writer = nullptr;
alignas(runtime::FileSink) unsigned char g_sink_storage[sizeof(runtime::FileSink)];
alignas(Writer) unsigned char g_writer_storage[sizeof(Writer)];
char g_path[4096];
char g_temporary[4096 + 16];

bool known_module(std::uintptr_t base, const char* name) {
  for (int id = 0; id < g_module_count; ++id)
    if (g_modules[id].base == base && (!name || !*name || std::strcmp(g_modules[id].path, name) == 0))
      return true;
  return false;
}

int collect_module(dl_phdr_info* info, std::size_t, void*) {
  if (g_module_count == kMaxModules) return 1;
  if (known_module(info->dlpi_addr, info->dlpi_name)) return 0;
  Module& m = g_modules[g_module_count];
  m = Module{};
  m.base = info->dlpi_addr;
  m.begin = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
    const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
    if (begin < m.begin) m.begin = begin;
    if (begin + segment.p_memsz > m.end) m.end = begin + segment.p_memsz;
  }
  if (m.begin == UINTPTR_MAX) return 0;
  const char* name = info->dlpi_name;
  if (!name || !*name) {  // the main program
    const ssize_t n = readlink("/proc/self/exe", m.path, sizeof m.path - 1);
    m.path[n > 0 ? n : 0] = '\0';
  } else {
    std::strncpy(m.path, name, sizeof m.path - 1);
  }
  ++g_module_count;
  return 0;
}

void choose_path() {
  const long long pid = getpid();
  if (const char* path = std::getenv("PARPERF_MEM_TRACE"); path && *path) {
    std::snprintf(g_path, sizeof g_path, "%s", path);
  } else if (const char* dir = std::getenv("PARPERF_DIR"); dir && *dir) {
    std::snprintf(g_path, sizeof g_path, "%s/memory.%lld.ppm", dir, pid);
  } else {
    std::snprintf(g_path, sizeof g_path, "parperf-memory-%lld.ppm", pid);
  }
  std::snprintf(g_temporary, sizeof g_temporary, "%s.partial", g_path);
}

std::size_t read_command_line(char* text, std::size_t size) {
  const int fd = runtime::open_private("/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return 0;
  const ssize_t n = read(fd, text, size - 1);
  close(fd);
  if (n <= 0) return 0;
  std::size_t length = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < length; ++i)
    if (text[i] == '\0') text[i] = ' ';
  while (length > 0 && text[length - 1] == ' ') --length;
  return length;
}

// Writes the modules from `first` on as one section (the reader accepts several).
void write_modules(int first) {
  if (first == g_module_count) return;
  g_sink->flush();
  g_writer->begin_section(static_cast<std::uint32_t>(format::MemoryTraceSection::modules));
  for (int id = first; id < g_module_count; ++id) {
    format::MemoryModuleRecord r;
    r.id = static_cast<std::uint32_t>(id);
    r.path = std::string_view(g_modules[id].path);
    g_writer->record(r);
  }
  g_writer->end_section();
}

// The pipe of `parperf locality` belongs to the process it started (PARPERF_PID): a child the
// program forks writes a file of its own instead of mixing its stream into its parent's.
bool owns_pipe() {
  const char* owner = std::getenv("PARPERF_PID");
  return owner != nullptr && std::atoll(owner) == static_cast<long long>(getpid());
}

int open_target() {
  if (const char* fd = std::getenv("PARPERF_MEM_TRACE_FD"); fd && *fd && owns_pipe()) {
    g_to_pipe = g_in_place = true;
    std::snprintf(g_path, sizeof g_path, "file descriptor %s", fd);
    return std::atoi(fd);
  }
  choose_path();
  // A device or a FIFO (/dev/null, a named pipe read by another tool) is written in place:
  // renaming the temporary over it would replace it with a regular file.
  if (struct stat target; stat(g_path, &target) == 0 && !S_ISREG(target.st_mode)) {
    g_in_place = true;
    return runtime::open_private(g_path, O_WRONLY);
  }
  // The temporary's name is predictable: made afresh, never through a link someone planted there.
  unlink(g_temporary);
  return runtime::open_private(g_temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
}

// The MPI rank as the launcher tells it (the collector does not call MPI), 0 outside a job.
std::int64_t launcher_rank() {
  for (const char* name : format::kLauncherRankVariables) {
    if (const char* value = std::getenv(name); value && *value) return std::atoll(value);
  }
  return 0;
}

bool open_trace() {
  if (g_writer) return true;
  if (g_failed) return false;
  g_fd = open_target();
  if (g_fd < 0) {
    g_failed = true;
    std::fprintf(stderr,
                 "parperf: cannot write the memory trace '%s': %s; the program continues unmeasured\n",
                 g_path, std::strerror(errno));
    return false;
  }
  g_sink = new (g_sink_storage) runtime::FileSink(g_fd, g_buffer, sizeof g_buffer);
  g_writer = new (g_writer_storage) Writer(*g_sink);
  g_writer->file_header(format::memory_trace_header());
  if (const std::uint32_t threshold = g_sample_threshold.load(std::memory_order_relaxed);
      threshold < kSampleModulus) {
    format::MemorySamplingRecord sampling;
    sampling.modulus = kSampleModulus;
    sampling.threshold = threshold;
    sampling.block_bytes = 1u << kSampleBlockShift;
    g_writer->begin_section(static_cast<std::uint32_t>(format::MemoryTraceSection::sampling));
    g_writer->record(sampling);
    g_writer->end_section();
  }
  if (g_burst_sampling.load(std::memory_order_relaxed)) {
    format::MemoryBurstRecord bursts;
    bursts.burst_length = g_burst_length.load(std::memory_order_relaxed);
    bursts.mean_gap = g_mean_gap.load(std::memory_order_relaxed);
    g_writer->begin_section(static_cast<std::uint32_t>(format::MemoryTraceSection::bursts));
    g_writer->record(bursts);
    g_writer->end_section();
  }
  dl_iterate_phdr(collect_module, nullptr);
  write_modules(0);
  return true;
}

bool locate(format::MemoryAccessRecord& r) {
  const std::uint64_t pc = format::code_address(r);
  for (int id = 0; id < g_module_count; ++id) {
    const Module& m = g_modules[id];
    if (pc >= m.begin && pc < m.end) {
      r.pc = (pc - m.base) | (r.pc & ~format::kCodeAddressMask);
      r.module = static_cast<std::uint32_t>(id);
      return true;
    }
  }
  return false;
}

// Code loaded after the trace began (dlopen) is looked up again once per section; what still
// cannot be placed keeps its absolute address, with no module.
void locate_all(format::MemoryAccessRecord* records, std::uint32_t count) {
  bool refreshed = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (locate(records[i])) continue;
    if (!refreshed) {
      refreshed = true;
      const int before = g_module_count;
      dl_iterate_phdr(collect_module, nullptr);
      write_modules(before);
      if (locate(records[i])) continue;
    }
    records[i].module = 0xffffffffu;
  }
}

}  // namespace

bool write_accesses(format::MemoryAccessRecord* records, std::uint32_t count) noexcept {
  if (count == 0) return !g_failed;
  if (!open_trace()) return false;
  locate_all(records, count);
  g_sink->flush();  // the section starts at the buffer's start and fits in it (see g_buffer)
  g_writer->begin_section(static_cast<std::uint32_t>(format::MemoryTraceSection::accesses));
  g_writer->records_as_bytes(records, count);
  g_writer->end_section();
  g_sink->flush();
  if (g_sink->failed() && !g_failed) {
    g_failed = true;
    std::fprintf(stderr,
                 "parperf: cannot write the memory trace to %s: %s; the program continues unmeasured\n",
                 g_path, std::strerror(g_sink->error()));
  }
  return !g_sink->failed();
}

void close_trace(std::uint64_t dropped) noexcept {
  if (!open_trace()) return;
  char command_line[4096];
  format::MemoryTraceProcessRecord process;
  process.pid = getpid();
  process.rank = launcher_rank();
  process.dropped = dropped;
  process.command_line = std::string_view(command_line, read_command_line(command_line, sizeof command_line));
  process.source = "parperf-mem";
  g_sink->flush();
  g_writer->begin_section(static_cast<std::uint32_t>(format::MemoryTraceSection::process));
  g_writer->record(process);
  g_writer->end_section();
  g_writer->finish();
  g_sink->flush();
  int error = g_sink->error();
  close(g_fd);
  if (g_to_pipe) return;
  if (!g_in_place && error == 0 && rename(g_temporary, g_path) != 0) error = errno;
  if (error != 0) {
    std::fprintf(stderr, "parperf: cannot write the memory trace '%s': %s\n", g_path, std::strerror(error));
    if (!g_in_place) unlink(g_temporary);
    return;
  }
  if (!std::getenv("PARPERF_QUIET")) std::fprintf(stderr, "parperf: memory trace written to '%s'\n", g_path);
}

}  // namespace parperf::memory
