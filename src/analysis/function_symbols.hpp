// The functions of an executable or shared library, as the function filter sees them: each defined
// function symbol's module-relative entry address with the name and source file the report gives
// it (symbolizer.hpp: demangled, from DWARF where there is any, else from the symbol table).
// `parperf cc --instrument=functions --filter FILE` reads them after linking to decide which
// addresses the runtime leaves out (format/excluded_functions.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parperf::analysis {

struct FunctionSymbol {
  std::uint64_t address = 0;  // module-relative entry address
  std::string name;           // as the report names the function
  std::string file;           // its source file; empty when the module has no line information
};

// Every defined function of the ELF file at `path` (its .symtab, else its .dynsym), one per
// address, in address order. Throws std::runtime_error when the file cannot be read as ELF.
std::vector<FunctionSymbol> function_symbols(const std::string& path);

}  // namespace parperf::analysis
