// Whether an object lives in static storage: inside a segment of a loaded executable or library
// (its data or bss), as every parperf_site must (parperf.h). A site on a thread's stack, on the heap
// or in memory the program maps itself dies before the profile is written at exit; the registry
// copies such a site instead of keeping its address (site_registry.cpp).
#pragma once

namespace parperf::runtime {

// True when `address` lies in a PT_LOAD segment of a loaded object. Takes the loader's lock
// (dl_iterate_phdr): for registration only, never on a hot path or in a signal handler.
bool in_static_storage(const void* address) noexcept;

}  // namespace parperf::runtime
