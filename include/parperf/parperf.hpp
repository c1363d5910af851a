// parperf annotation API for C++: RAII scopes over the C API in parperf.h.
//
//   void solve() {
//     PARPERF_SCOPE("solve");                 // a user interval for the rest of the block
//     for (int step = 0; step < n; ++step) {
//       PARPERF_SCOPE_VALUE("step", step % 2); // same site, different values: different intervals
//       ...
//     }
//   }
//
// The site of each macro is a function-local static with constant initialisation: no guard
// variable, no allocation, no string hashing when the scope is entered.
#ifndef PARPERF_PARPERF_HPP
#define PARPERF_PARPERF_HPP

#include <cstdint>

#include "parperf/parperf.h"

namespace parperf {

class Scope {
 public:
  explicit Scope(parperf_site* site, std::int64_t value = 0) noexcept : site_(site) {
    parperf_interval_begin(site, value);
  }
  ~Scope() { parperf_interval_end(site_); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  parperf_site* site_;
};

// Marks the start of one iteration of the innermost loop interval.
inline void loop_iteration() noexcept { parperf_loop_iteration(); }

}  // namespace parperf

#define PARPERF_CONCAT_INNER(a, b) a##b
#define PARPERF_CONCAT(a, b) PARPERF_CONCAT_INNER(a, b)

#define PARPERF_SCOPE_KIND_VALUE(name, kind, value)                                              \
  static ::parperf_site PARPERF_CONCAT(parperf_site_, __LINE__) = PARPERF_SITE_INIT(name, kind); \
  ::parperf::Scope PARPERF_CONCAT(parperf_scope_, __LINE__)(&PARPERF_CONCAT(parperf_site_, __LINE__), (value))

#define PARPERF_SCOPE(name) PARPERF_SCOPE_KIND_VALUE(name, PARPERF_KIND_USER, 0)
#define PARPERF_SCOPE_VALUE(name, value) PARPERF_SCOPE_KIND_VALUE(name, PARPERF_KIND_USER, value)
#define PARPERF_PARALLEL_LOOP(name) PARPERF_SCOPE_KIND_VALUE(name, PARPERF_KIND_PARALLEL_LOOP, 0)
#define PARPERF_SEQUENTIAL_LOOP(name) PARPERF_SCOPE_KIND_VALUE(name, PARPERF_KIND_SEQUENTIAL_LOOP, 0)
// One arm of a branch inside a loop body, for the rest of the block: `if (x) { PARPERF_BRANCH("x"); ... }`.
#define PARPERF_BRANCH(name) PARPERF_SCOPE_KIND_VALUE(name, PARPERF_KIND_BRANCH, 0)

#endif  // PARPERF_PARPERF_HPP
