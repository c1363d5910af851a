// The name of a procedure linkage table stub: the few instructions through which a module calls a
// function of another library ("cos@plt", as perf and gdb name them). The stubs have no symbols
// of their own, yet a program calling a short library function in a loop spends a measurable part of
// its time in them (2 % of the samples of tests/scenarios/sampled_languages' programs).
#pragma once

#include <libelf.h>

#include <cstdint>
#include <string>

namespace parperf::analysis {

// "<function>@plt" when `address` (a file address of `elf`) lies in a stub of .plt or .plt.sec
// whose relocation in .rela.plt names the function, or in a stub of .plt.got (functions whose
// address the module also takes, __cxa_finalize in every PIE program gcc links) whose GOT slot a
// .rela.dyn relocation names; empty otherwise (the lazy-binding stub at the start of .plt, another
// section, another architecture than x86-64, a malformed table).
std::string plt_stub_name(Elf* elf, std::uint64_t address);

}  // namespace parperf::analysis
