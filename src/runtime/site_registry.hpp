// Process-wide numbering of interval sites.
//
// A site is registered the first time any thread enters it: it gets an id (its number in the
// profile file) and a state cached in its own runtime-owned fields, so later entries read one
// word from the descriptor and touch nothing shared. Sites built at run time (named or
// length-delimited names) are interned here into descriptors that live until the process ends.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parperf/parperf.h"

namespace parperf::runtime {

// Values of parperf_site::state_ (low byte); the bits above are "already warned" flags.
enum SiteState : std::int32_t {
  kSiteUnregistered = 0,
  kSiteRecorded = 1,
  kSiteFiltered = 2,  // excluded by PARPERF_INCLUDE / PARPERF_EXCLUDE: transparent, its children still count
  kSiteCopied = 3,    // not in static storage: the runtime uses its copy (copied_site) in its place
};
inline constexpr std::int32_t kSiteStateMask = 0xff;
inline constexpr std::int32_t kSiteWarnedUnbalanced = 0x100;
inline constexpr std::int32_t kSiteWarnedNotStatic =
    0x1000;                                             // its copy: the warning that the site was not static
inline constexpr std::int32_t kSiteIsCodeSite = 0x200;  // the descriptor heads a CodeSite (code_sites.hpp)
inline constexpr std::int32_t kSiteNotTraced = 0x400;  // PARPERF_TRACE_FILTER keeps it out of the event trace
inline constexpr std::int32_t kSiteInterned = 0x800;   // a descriptor intern_site made: the runtime owns it

// The root interval's site: every thread's tree starts here.
parperf_site* program_site() noexcept;

// Registers `site` if needed and returns its state (kSiteRecorded or kSiteFiltered). A site outside
// static storage (on a stack, on the heap: a breach of parperf.h's contract) would be gone when the
// profile is written: its copy is registered instead, the site is marked kSiteCopied, and a warning
// names it once. Callers that keep a site's address use copied_site() for such a site.
std::int32_t register_site(parperf_site* site) noexcept;

// The runtime's copy of a kSiteCopied site (the same name, file, line and kind); null when out of
// memory. Cold: a hash lookup under the registry's lock.
parperf_site* copied_site(const parperf_site* site) noexcept;

// The descriptor for a run-time name (copied on first use). `file` may be null.
parperf_site* intern_site(const char* name, std::size_t name_length, int kind, const char* file,
                          std::size_t file_length, int line) noexcept;

// Sites registered so far, in id order; safe to call from the writer while others register.
std::uint32_t registered_site_count() noexcept;
const parperf_site* registered_site(std::uint32_t id) noexcept;

// Sets `flag` in the site's state; returns true for the caller that set it first.
bool set_site_flag_once(parperf_site* site, std::int32_t flag) noexcept;

}  // namespace parperf::runtime
