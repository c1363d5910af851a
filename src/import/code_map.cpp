#include "import/code_map.hpp"

#include <elf.h>

#include <bit>
#include <cstring>
#include <optional>

#include "format/memory_trace_reader.hpp"
#include "format/regular_file.hpp"
#include "import/import_common.hpp"

namespace parperf::trace_import {

ExecutableCodeMap ExecutableCodeMap::load(const std::filesystem::path& executable, std::uint32_t module) {
  const auto fail = [&](const std::string& why) -> ExecutableCodeMap {
    throw ImportError(executable.string() + ": " + why);
  };
  std::optional<format::RegularFile> opened;
  try {
    opened.emplace(executable);  // not a FIFO or a device: an executable is a file
  } catch (const format::FileError& e) {
    return fail(e.cause());
  }
  const format::RegularFile& file = *opened;
  Elf64_Ehdr header{};
  if (!file.read_at(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return fail("not an ELF file");
  const unsigned char native = std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != native)
    return fail("not a 64-bit ELF file in this machine's byte order");

  ExecutableCodeMap map;
  map.module_ = module;
  if (header.e_type != ET_EXEC) return map;  // PIE or shared object: loaded anywhere
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return fail("unexpected program header size");
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!file.read_at(header.e_phoff + std::uint64_t{i} * sizeof segment, &segment, sizeof segment))
      return fail("truncated program headers");
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X) != 0)
      map.text_.emplace_back(segment.p_vaddr, segment.p_vaddr + segment.p_memsz);
  }
  return map;
}

void ExecutableCodeMap::locate(format::MemoryAccessRecord& access) const {
  access.module = format::kNoModule;
  if (access.pc == 0) return;
  for (const auto& [begin, end] : text_)
    if (access.pc >= begin && access.pc < end) {
      access.module = module_;
      return;
    }
}

}  // namespace parperf::trace_import
