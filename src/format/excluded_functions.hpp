// The ELF section in which `parperf cc|c++|fortran --instrument=functions --filter FILE` leaves the
// functions its filter excludes, for the runtime's function hooks to read (docs/instrumentation.md).
//
// The wrapper decides after linking, when it knows every function of the executable or library with
// its name and source file (from the symbol table and DWARF), and adds the section with objcopy: a
// section that is not loaded changes no address, so the addresses it lists stay exact. The runtime
// reads it from the module's file the first time a function of that module is entered.
//
// Layout, little-endian: the magic "PPFX", a u32 version (1), a u64 count, then `count` u64
// module-relative entry addresses (the address in the ELF file's own address space, as the
// profile's sites hold them), ascending.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parperf::format {

inline constexpr const char* kExcludedFunctionsSection = ".parperf.exclude";
inline constexpr char kExcludedFunctionsMagic[4] = {'P', 'P', 'F', 'X'};
inline constexpr std::uint32_t kExcludedFunctionsVersion = 1;
inline constexpr std::size_t kExcludedFunctionsHeader = 16;

// The addresses of a section's `bytes` (`size` of them), or null with count 0 when they are not
// such a section (wrong magic or version, a count the size cannot hold). x86-64 and AArch64 are
// little-endian, so the addresses are read in place (the section is 8-byte aligned by its writer
// and read into aligned memory).
inline const std::uint64_t* excluded_function_addresses(const unsigned char* bytes, std::size_t size,
                                                        std::uint64_t& count) noexcept {
  count = 0;
  if (size < kExcludedFunctionsHeader || std::memcmp(bytes, kExcludedFunctionsMagic, 4) != 0) return nullptr;
  std::uint32_t version = 0;
  std::uint64_t n = 0;
  std::memcpy(&version, bytes + 4, 4);
  std::memcpy(&n, bytes + 8, 8);
  if (version != kExcludedFunctionsVersion || n > (size - kExcludedFunctionsHeader) / 8) return nullptr;
  count = n;
  return reinterpret_cast<const std::uint64_t*>(bytes + kExcludedFunctionsHeader);
}

}  // namespace parperf::format
