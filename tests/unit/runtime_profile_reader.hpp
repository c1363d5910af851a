// Test helper: flushes the runtime inside the test process and reads its profile back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/profile.hpp"

namespace parperf::testing {

// parperf_flush(), then decode $PARPERF_DIR/profile.0.ppf.
format::Profile flush_and_read();
// Decode $PARPERF_DIR/profile.0.ppf as it is on disk now.
format::Profile read_written_profile();

// The node reached from the root of `thread` through intervals named `path` (each with any value
// unless `values` gives them), or null.
const format::Node* find_node(const format::Profile& profile, const format::Thread& thread,
                              const std::vector<std::string>& path,
                              const std::vector<std::int64_t>& values = {});

// The thread that registered first (the main thread of a test process).
const format::Thread& main_thread(const format::Profile& profile);

// The thread whose tree holds a node on `path`; null if none.
const format::Thread* thread_with(const format::Profile& profile, const std::vector<std::string>& path);

// Busy-waits (burning CPU) for `ms` milliseconds of wall-clock time.
void busy_for_ms(int ms);

// The test's own measurement of a stretch of code, taken just outside the API calls, to compare the
// runtime's figures with: on a loaded machine a 2 ms busy-wait may take 10 ms, and the runtime must
// report what really happened.
class Stopwatch {
 public:
  Stopwatch();
  double elapsed_ms() const;     // wall-clock time since construction
  double thread_cpu_ms() const;  // CPU time of the calling thread since construction

 private:
  std::uint64_t wall_start_ns_;
  std::uint64_t cpu_start_ns_;
};

inline double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace parperf::testing
