// Turns code addresses recorded by the runtime (a module path and an address in that module) into
// function, source file and line, post mortem, from the module's DWARF (libdw) or, without debug
// information, its symbol table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parperf::analysis {

// A function that an inlined call was inlined into, with the call's line.
struct InlinedCaller {
  std::string function;
  std::string file;
  std::int64_t line = 0;
};

// Empty strings and line 0 mean unknown.
struct SourceLocation {
  std::string function;  // demangled; for OpenMP outlined code, the source function the construct is in
  std::string file;      // as recorded in DWARF, made absolute with the compilation directory
  std::int64_t line = 0;
  // When `function` was inlined: the functions it sits in, innermost first, each with the line of
  // the inlined call; the last one is the function the code was compiled as. Empty otherwise.
  std::vector<InlinedCaller> inlined_into{};
};

// Addresses are module-relative: the runtime address minus the module's load bias (link_map::l_addr),
// that is an address in the ELF file's own virtual address space (the absolute address for a non-PIE
// executable, the offset from 0 for a PIE or shared object).
//
// Function names: the innermost function at the address, an inlined callee included, so that name
// and line agree. Code that compilers outline for OpenMP constructs is reported as the function the
// construct was written in: gcc's `f._omp_fn.N` as `f`; clang's `.omp_outlined.*` (which DWARF does
// not link to its origin) as the function of the same compilation unit and source file declared last
// at or before the construct's line. gcc's clone suffixes (.part.N, .constprop.N, .isra.N, .cold) are
// dropped.
//
// Each module is opened once and kept open; results are cached per (module, address). Not
// thread-safe.
class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(Symbolizer&&) noexcept;
  Symbolizer& operator=(Symbolizer&&) noexcept;
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The source location of the instruction at `address`. Never throws: what cannot be found stays
  // empty, and problem() tells why the module could not be read.
  SourceLocation locate(const std::string& module_path, std::uint64_t address);

  // For a return address (OMPT's codeptr_ra, a frame of a stack): the location of the call
  // instruction, looked up at address - 1. The return address itself may already belong to the next
  // source line, or to another function when the call was the last instruction of one.
  SourceLocation locate_return_address(const std::string& module_path, std::uint64_t address);

  // Why `module_path` could not be read (fully), for a warning: "<path>: no such file", "<path>: not
  // an ELF file", "<path>: no debug information (compile with -g)", ...; empty when it could, or when
  // it was never asked for.
  const std::string& problem(const std::string& module_path) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parperf::analysis
