#include "analysis/plt_stubs.hpp"

#include <gelf.h>

#include <string_view>

namespace parperf::analysis {
namespace {

struct Section {
  Elf_Scn* scn = nullptr;
  GElf_Shdr header{};
  bool holds(std::uint64_t address) const {
    return scn && address >= header.sh_addr && address < header.sh_addr + header.sh_size;
  }
};

// The x86-64 ABI's stubs are 16 bytes; .plt starts with the lazy-binding stub, .plt.sec (with
// indirect branch tracking) does not, and both follow .rela.plt's order.
constexpr std::uint64_t kStubSize = 16;

}  // namespace

std::string plt_stub_name(Elf* elf, std::uint64_t address) {
  GElf_Ehdr ehdr;
  std::size_t names = 0;
  if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_machine != EM_X86_64 || elf_getshdrstrndx(elf, &names) != 0)
    return {};
  Section plt, plt_sec, rela_plt;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header)) continue;
    const char* name = elf_strptr(elf, names, header.sh_name);
    if (!name) continue;
    const std::string_view n(name);
    Section* kept = n == ".plt" ? &plt : n == ".plt.sec" ? &plt_sec : n == ".rela.plt" ? &rela_plt : nullptr;
    if (kept) *kept = {scn, header};
  }
  if (!rela_plt.scn || rela_plt.header.sh_type != SHT_RELA) return {};
  std::uint64_t index = 0;
  if (plt_sec.holds(address)) {
    index = (address - plt_sec.header.sh_addr) / kStubSize;
  } else if (plt.holds(address)) {
    const std::uint64_t stub = (address - plt.header.sh_addr) / kStubSize;
    if (stub == 0) return {};  // the lazy-binding stub: no function of its own
    index = stub - 1;
  } else {
    return {};
  }
  Elf_Data* relocations = elf_getdata(rela_plt.scn, nullptr);
  GElf_Rela rela;
  if (!relocations || index > static_cast<std::uint64_t>(INT32_MAX) ||
      !gelf_getrela(relocations, static_cast<int>(index), &rela))
    return {};
  // The symbol table the relocations refer to (.dynsym), and its string table.
  Elf_Scn* symbols = elf_getscn(elf, rela_plt.header.sh_link);
  GElf_Shdr symbols_header;
  if (!symbols || !gelf_getshdr(symbols, &symbols_header)) return {};
  Elf_Data* symbol_data = elf_getdata(symbols, nullptr);
  GElf_Sym symbol;
  const auto symbol_index = GELF_R_SYM(rela.r_info);
  if (!symbol_data || symbol_index == 0 || symbol_index > static_cast<std::uint64_t>(INT32_MAX) ||
      !gelf_getsym(symbol_data, static_cast<int>(symbol_index), &symbol))
    return {};
  const char* name = elf_strptr(elf, symbols_header.sh_link, symbol.st_name);
  if (!name || !*name) return {};
  return std::string(name) + "@plt";
}

}  // namespace parperf::analysis
