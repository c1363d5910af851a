// Sites that a collector finds at a code address rather than in a static descriptor: a construct
// of a parallel runtime is known by the return address the runtime's tool interface hands over, a
// call into a communication library by its caller's address.
//
// A CodeSite is created the first time its (key, kind) is seen and lives until the process ends;
// its parperf_site member is what intervals and operations refer to, so the hot path treats it
// like any annotation site. Symbolization happens post mortem (the analysis reads the module path
// and the module-relative address), so creating a site costs one dladdr and no debug-info reading.
//
// The table is a fixed open-addressed array searched without a lock; insertion is a CAS on an
// empty slot. Lookups of known sites touch no shared cache line that anyone writes.
#pragma once

#include <atomic>
#include <cstdint>

#include "format/records.hpp"
#include "parperf/parperf.h"

namespace parperf::runtime {

struct CodeSite {
  parperf_site site;          // first member: a CodeSite* and its &site are interchangeable
  const void* key = nullptr;  // the code address, or the construct a barrier belongs to
  format::SiteKind kind = format::SiteKind::program;
  std::uintptr_t address = 0;  // module-relative; 0 when unknown
  std::atomic<std::uintptr_t> end_address{0};
  const char* module = "";
  const CodeSite* parent = nullptr;  // for a construct's implicit or join barrier
  bool in_foreign_runtime = false;   // the address lies inside the parallel runtime itself
  std::uint16_t slot = 0;            // its place in the table (code_site_in_slot)
};

// A site's slot names it in kCodeSiteSlotBits bits, where a pointer does not fit: a runtime's
// 8-byte word per work item that must also carry the item's id.
inline constexpr unsigned kCodeSiteSlotBits = 14;
// The site in `slot` (CodeSite::slot of a site this process created), or null.
CodeSite* code_site_in_slot(std::uint32_t slot) noexcept;

// The site of `codeptr` as a `kind` (codeptr may be null: an unknown site of that kind), named
// `name` (static storage: the collector's name for the kind, or the function called) when it is
// created. Null only when memory or the table is exhausted.
CodeSite* code_site(const void* codeptr, format::SiteKind kind, const char* name) noexcept;

// The site of an operation that belongs to a construct (its implicit barrier, say): it shares the
// construct's address and names it as its parent.
CodeSite* construct_operation_site(const CodeSite* construct, format::SiteKind kind,
                                   const char* name) noexcept;

// Records the address that ended the construct (the first one seen is kept).
inline void note_end_address(CodeSite* site, const void* codeptr, std::uintptr_t load_bias) noexcept {
  if (codeptr && site->end_address.load(std::memory_order_relaxed) == 0)
    site->end_address.store(reinterpret_cast<std::uintptr_t>(codeptr) - load_bias, std::memory_order_relaxed);
}

// The load bias of the module that holds `site`'s address (to convert end addresses alike).
std::uintptr_t load_bias_of(const CodeSite* site) noexcept;

// Addresses inside the module that holds `any_address` belong to a parallel runtime (the library
// a collector measures): return addresses there say nothing about the user's code.
void mark_foreign_runtime_module(const void* any_address) noexcept;

// The CodeSite behind a registered descriptor, or null for annotation sites.
const CodeSite* as_code_site(const parperf_site* site) noexcept;

}  // namespace parperf::runtime
