#include "analysis/function_symbols.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "analysis/symbolizer.hpp"

namespace parperf::analysis {
namespace {

struct FileCloser {
  int fd;
  ~FileCloser() { close(fd); }
};

// The entry addresses of the defined functions in the section `kind` (SHT_SYMTAB or SHT_DYNSYM).
std::vector<std::uint64_t> function_addresses(Elf* elf, Elf64_Word kind) {
  std::vector<std::uint64_t> addresses;
  for (Elf_Scn* section = elf_nextscn(elf, nullptr); section; section = elf_nextscn(elf, section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != kind || header.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data) continue;
    for (std::size_t i = 0; i < header.sh_size / header.sh_entsize; ++i) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(i), &symbol)) continue;
      if (GELF_ST_TYPE(symbol.st_info) == STT_FUNC && symbol.st_shndx != SHN_UNDEF && symbol.st_value != 0)
        addresses.push_back(symbol.st_value);
    }
  }
  return addresses;
}

}  // namespace

std::vector<FunctionSymbol> function_symbols(const std::string& path) {
  elf_version(EV_CURRENT);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open it");
  FileCloser closer{fd};
  std::unique_ptr<Elf, decltype(&elf_end)> elf(elf_begin(fd, ELF_C_READ, nullptr), &elf_end);
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) throw std::runtime_error(path + ": not an ELF file");
  std::vector<std::uint64_t> addresses = function_addresses(elf.get(), SHT_SYMTAB);
  if (addresses.empty()) addresses = function_addresses(elf.get(), SHT_DYNSYM);
  std::sort(addresses.begin(), addresses.end());
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());

  Symbolizer symbolizer;
  std::vector<FunctionSymbol> functions;
  functions.reserve(addresses.size());
  for (const std::uint64_t address : addresses) {
    SourceLocation where = symbolizer.locate(path, address);
    functions.push_back({address, std::move(where.function), std::move(where.file)});
  }
  return functions;
}

}  // namespace parperf::analysis
