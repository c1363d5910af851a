#include "analysis/plt_stubs.hpp"

#include <gelf.h>

#include <cstring>
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

// "<symbol>@plt" for the relocation `rela` of the table `relocations` (whose sh_link is its symbol
// table, .dynsym); empty when it names no symbol.
std::string stub_name(Elf* elf, const Section& relocations, const GElf_Rela& rela) {
  Elf_Scn* symbols = elf_getscn(elf, relocations.header.sh_link);
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

// The GOT slot a .plt.got stub jumps through: its instructions are `jmp *slot(%rip)`, after an
// endbr64 and with a bnd prefix where the program was built for indirect branch tracking. 0: not
// such a stub.
std::uint64_t plt_got_slot(const Section& plt_got, std::uint64_t address) {
  const std::uint64_t size = plt_got.header.sh_entsize ? plt_got.header.sh_entsize : 8;
  const std::uint64_t offset = (address - plt_got.header.sh_addr) / size * size;
  Elf_Data* code = elf_getdata(plt_got.scn, nullptr);
  if (!code || !code->d_buf || offset + size > code->d_size || size < 6) return 0;
  const auto* stub = static_cast<const unsigned char*>(code->d_buf) + offset;
  std::uint64_t at = 0;
  if (size >= 10 && stub[0] == 0xf3 && stub[1] == 0x0f && stub[2] == 0x1e && stub[3] == 0xfa)
    at = 4;                                 // endbr64
  if (at < size && stub[at] == 0xf2) ++at;  // bnd
  if (at + 6 > size || stub[at] != 0xff || stub[at + 1] != 0x25) return 0;
  std::int32_t displacement;
  std::memcpy(&displacement, stub + at + 2, sizeof displacement);
  const std::uint64_t next = plt_got.header.sh_addr + offset + at + 6;
  return next + static_cast<std::uint64_t>(static_cast<std::int64_t>(displacement));
}

}  // namespace

std::string plt_stub_name(Elf* elf, std::uint64_t address) {
  GElf_Ehdr ehdr;
  std::size_t names = 0;
  if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_machine != EM_X86_64 || elf_getshdrstrndx(elf, &names) != 0)
    return {};
  Section plt, plt_sec, plt_got, rela_plt, rela_dyn;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header)) continue;
    const char* name = elf_strptr(elf, names, header.sh_name);
    if (!name) continue;
    const std::string_view n(name);
    Section* kept = n == ".plt"        ? &plt
                    : n == ".plt.sec"  ? &plt_sec
                    : n == ".plt.got"  ? &plt_got
                    : n == ".rela.plt" ? &rela_plt
                    : n == ".rela.dyn" ? &rela_dyn
                                       : nullptr;
    if (kept) *kept = {scn, header};
  }
  if (plt_got.holds(address)) {
    // Stubs of functions whose address the module also takes: their GOT slot is filled at load
    // time by a .rela.dyn relocation naming the function.
    const std::uint64_t slot = plt_got_slot(plt_got, address);
    Elf_Data* relocations = rela_dyn.scn ? elf_getdata(rela_dyn.scn, nullptr) : nullptr;
    if (!slot || !relocations || rela_dyn.header.sh_type != SHT_RELA || !rela_dyn.header.sh_entsize)
      return {};
    const std::uint64_t count = rela_dyn.header.sh_size / rela_dyn.header.sh_entsize;
    GElf_Rela rela;
    for (std::uint64_t i = 0; i < count && i <= static_cast<std::uint64_t>(INT32_MAX); ++i)
      if (gelf_getrela(relocations, static_cast<int>(i), &rela) && rela.r_offset == slot)
        return stub_name(elf, rela_dyn, rela);
    return {};
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
  return stub_name(elf, rela_plt, rela);
}

}  // namespace parperf::analysis
