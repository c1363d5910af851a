#include "unit/runtime_profile_reader.hpp"

#include <time.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "format/profile_reader.hpp"
#include "parperf/parperf.h"

namespace parperf::testing {

format::Profile flush_and_read() {
  parperf_flush();
  return read_written_profile();
}

format::Profile read_written_profile() {
  const char* dir = std::getenv("PARPERF_DIR");
  if (!dir) throw std::runtime_error("PARPERF_DIR is not set for this test");
  return format::read_profile_file(std::filesystem::path(dir) / "profile.0.ppf");
}

namespace {
const format::Site* site_of(const format::Profile& profile, std::uint32_t id) {
  for (const auto& s : profile.sites)
    if (s.id == id) return &s;
  return nullptr;
}
}  // namespace

const format::Node* find_node(const format::Profile& profile, const format::Thread& thread,
                              const std::vector<std::string>& path, const std::vector<std::int64_t>& values) {
  std::uint32_t current = 0;
  for (std::size_t level = 0; level < path.size(); ++level) {
    bool found = false;
    for (std::uint32_t i = current + 1; i < thread.nodes.size(); ++i) {
      const auto& n = thread.nodes[i];
      if (n.parent != current) continue;
      const format::Site* s = site_of(profile, n.site);
      if (!s || s->name != path[level]) continue;
      if (level < values.size() && n.value != values[level]) continue;
      current = i;
      found = true;
      break;
    }
    if (!found) return nullptr;
  }
  return &thread.nodes[current];
}

const format::Thread& main_thread(const format::Profile& profile) {
  for (const auto& t : profile.threads)
    if (t.index == 0) return t;
  throw std::runtime_error("no thread 0 in the profile");
}

const format::Thread* thread_with(const format::Profile& profile, const std::vector<std::string>& path) {
  for (const auto& t : profile.threads)
    if (find_node(profile, t, path)) return &t;
  return nullptr;
}

namespace {
std::uint64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}
}  // namespace

Stopwatch::Stopwatch()
    : wall_start_ns_(clock_ns(CLOCK_MONOTONIC)), cpu_start_ns_(clock_ns(CLOCK_THREAD_CPUTIME_ID)) {}
double Stopwatch::elapsed_ms() const { return ms(clock_ns(CLOCK_MONOTONIC) - wall_start_ns_); }
double Stopwatch::thread_cpu_ms() const { return ms(clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start_ns_); }

void busy_for_ms(int ms) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
  }
}

}  // namespace parperf::testing
